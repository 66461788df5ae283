module example.com/newsroom

go 1.26
