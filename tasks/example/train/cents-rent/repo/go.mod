module example.com/flatshare

go 1.26
