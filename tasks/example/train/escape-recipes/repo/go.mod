module example.com/recipefinder

go 1.26
