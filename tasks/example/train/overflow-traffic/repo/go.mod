module example.com/netstat

go 1.26
