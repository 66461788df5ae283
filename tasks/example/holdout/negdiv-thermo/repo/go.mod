module example.com/coldchain

go 1.26
