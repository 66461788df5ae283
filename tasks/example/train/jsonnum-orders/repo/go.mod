module example.com/shopfeed

go 1.26
