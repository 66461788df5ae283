module example.com/lab

go 1.26
