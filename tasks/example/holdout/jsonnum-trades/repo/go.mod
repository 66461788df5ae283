module example.com/exchange

go 1.26
