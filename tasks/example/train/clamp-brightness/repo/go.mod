module example.com/screenctl

go 1.26
