module example.com/djset

go 1.26
