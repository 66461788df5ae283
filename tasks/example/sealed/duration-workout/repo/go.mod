module example.com/gym

go 1.26
