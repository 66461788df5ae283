module example.com/bakery

go 1.26
