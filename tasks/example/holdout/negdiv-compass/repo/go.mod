module example.com/navkit

go 1.26
