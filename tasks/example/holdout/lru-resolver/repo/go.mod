module example.com/stubresolver

go 1.26
