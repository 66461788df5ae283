module example.com/roofing

go 1.26
