module example.com/homepage

go 1.26
