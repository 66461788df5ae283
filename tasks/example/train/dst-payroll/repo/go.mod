module example.com/payrun

go 1.26
