module example.com/citytransit

go 1.26
