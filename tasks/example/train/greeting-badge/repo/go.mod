module example.com/conference

go 1.26
