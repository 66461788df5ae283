module example.com/tripplanner

go 1.26
