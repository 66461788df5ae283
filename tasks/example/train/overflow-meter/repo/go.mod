module example.com/utility

go 1.26
