module example.com/housingdata

go 1.26
