module example.com/carpark

go 1.26
