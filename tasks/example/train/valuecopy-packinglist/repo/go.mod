module example.com/shipping2

go 1.26
