module example.com/directory

go 1.26
