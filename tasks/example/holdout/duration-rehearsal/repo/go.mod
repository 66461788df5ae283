module example.com/orchestra

go 1.26
