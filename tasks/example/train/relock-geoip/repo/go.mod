module example.com/geolookup

go 1.26
