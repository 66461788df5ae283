module example.com/meetings

go 1.26
