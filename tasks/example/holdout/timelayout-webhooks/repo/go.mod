module example.com/payments

go 1.26
