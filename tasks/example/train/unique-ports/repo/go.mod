module example.com/portscan

go 1.26
