module example.com/smarthome

go 1.26
