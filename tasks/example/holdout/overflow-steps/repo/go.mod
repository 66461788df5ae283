module example.com/fitband

go 1.26
