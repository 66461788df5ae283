module example.com/bankimport

go 1.26
