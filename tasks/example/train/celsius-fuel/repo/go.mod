module example.com/fuelstation

go 1.26
