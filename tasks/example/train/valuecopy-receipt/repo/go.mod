module example.com/till

go 1.26
