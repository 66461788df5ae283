module example.com/fleetlog

go 1.26
