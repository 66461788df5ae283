module example.com/clocks

go 1.26
