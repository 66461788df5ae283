module example.com/newsletter2

go 1.26
