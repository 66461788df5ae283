module example.com/charity

go 1.26
