module example.com/mapsapp

go 1.26
