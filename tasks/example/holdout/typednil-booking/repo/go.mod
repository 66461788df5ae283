module example.com/hotel

go 1.26
