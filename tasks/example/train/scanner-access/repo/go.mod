module example.com/webstats

go 1.26
