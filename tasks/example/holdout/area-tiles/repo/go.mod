module example.com/tiling

go 1.26
