module example.com/airline

go 1.26
