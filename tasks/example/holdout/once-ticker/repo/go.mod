module example.com/marketdata

go 1.26
