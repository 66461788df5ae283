module example.com/mailstats

go 1.26
