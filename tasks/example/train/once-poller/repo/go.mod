module example.com/feeds

go 1.26
