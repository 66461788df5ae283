module example.com/municipal

go 1.26
