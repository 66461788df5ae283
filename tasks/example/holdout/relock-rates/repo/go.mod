module example.com/forex

go 1.26
