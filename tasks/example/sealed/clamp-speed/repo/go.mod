module example.com/throttle

go 1.26
