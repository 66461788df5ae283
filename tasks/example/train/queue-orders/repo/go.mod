module example.com/kitchenline

go 1.26
