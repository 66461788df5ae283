module example.com/forecast

go 1.26
