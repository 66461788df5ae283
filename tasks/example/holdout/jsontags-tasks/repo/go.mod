module example.com/todoapi

go 1.26
