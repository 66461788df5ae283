module example.com/spider

go 1.26
