module example.com/kitchenstock

go 1.26
