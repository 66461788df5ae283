module example.com/paintshop

go 1.26
