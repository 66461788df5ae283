module example.com/newsletter

go 1.26
