module example.com/bookstore

go 1.26
