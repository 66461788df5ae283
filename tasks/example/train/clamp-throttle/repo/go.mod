module example.com/dronectl

go 1.26
