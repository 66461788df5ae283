module example.com/kitchen

go 1.26
