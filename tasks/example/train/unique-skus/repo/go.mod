module example.com/basket

go 1.26
