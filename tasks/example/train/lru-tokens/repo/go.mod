module example.com/authproxy

go 1.26
