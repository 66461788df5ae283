module example.com/monitor

go 1.26
