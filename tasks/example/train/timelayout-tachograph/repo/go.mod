module example.com/trucking

go 1.26
