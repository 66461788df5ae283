module example.com/forecastapp

go 1.26
