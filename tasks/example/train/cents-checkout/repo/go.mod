module example.com/retail

go 1.26
