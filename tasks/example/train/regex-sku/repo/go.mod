module example.com/warehouse2

go 1.26
