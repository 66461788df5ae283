module example.com/athletics

go 1.26
