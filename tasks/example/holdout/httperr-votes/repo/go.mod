module example.com/pollbooth

go 1.26
