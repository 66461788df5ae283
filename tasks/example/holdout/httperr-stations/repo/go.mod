module example.com/weatherapi

go 1.26
