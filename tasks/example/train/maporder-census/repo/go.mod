module example.com/statistics

go 1.26
