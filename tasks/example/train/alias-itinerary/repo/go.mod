module example.com/travelplanner

go 1.26
