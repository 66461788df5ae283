module example.com/webshop

go 1.26
