module example.com/translations

go 1.26
