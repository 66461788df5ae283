module example.com/bookbinder

go 1.26
