module example.com/mailfilter

go 1.26
