module example.com/adserver

go 1.26
