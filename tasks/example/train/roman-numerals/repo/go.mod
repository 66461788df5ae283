module example.com/almanac

go 1.26
