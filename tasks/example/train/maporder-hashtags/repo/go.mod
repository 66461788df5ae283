module example.com/socialfeed

go 1.26
