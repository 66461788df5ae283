module example.com/sharedrive

go 1.26
