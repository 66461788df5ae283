module example.com/imaging

go 1.26
