module example.com/phonebook

go 1.26
