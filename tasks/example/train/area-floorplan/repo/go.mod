module example.com/architect

go 1.26
