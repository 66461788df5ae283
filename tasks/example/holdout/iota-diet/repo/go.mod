module example.com/menuplanner

go 1.26
