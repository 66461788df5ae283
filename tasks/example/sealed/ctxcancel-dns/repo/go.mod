module example.com/resolverd

go 1.26
