module example.com/restaurant

go 1.26
