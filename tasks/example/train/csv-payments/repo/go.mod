module example.com/bankexport

go 1.26
