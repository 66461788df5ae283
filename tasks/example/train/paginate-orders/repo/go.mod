module example.com/backoffice

go 1.26
