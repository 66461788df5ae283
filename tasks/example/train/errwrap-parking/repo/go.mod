module example.com/garage

go 1.26
