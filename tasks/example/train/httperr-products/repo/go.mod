module example.com/catalogapi

go 1.26
