module example.com/billingapi

go 1.26
