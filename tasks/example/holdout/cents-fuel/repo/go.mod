module example.com/carpool

go 1.26
