module example.com/rhetoric

go 1.26
