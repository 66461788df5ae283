module example.com/meteo

go 1.26
