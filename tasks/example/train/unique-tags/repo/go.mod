module example.com/blog

go 1.26
