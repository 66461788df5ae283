module example.com/warehouse

go 1.26
