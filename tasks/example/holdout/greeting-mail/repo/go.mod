module example.com/letters

go 1.26
