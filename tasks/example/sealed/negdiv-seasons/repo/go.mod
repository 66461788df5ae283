module example.com/almanac2

go 1.26
