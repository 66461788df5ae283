module example.com/sitenav

go 1.26
