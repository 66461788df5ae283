module example.com/eshop

go 1.26
