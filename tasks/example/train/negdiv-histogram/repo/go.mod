module example.com/plotkit

go 1.26
