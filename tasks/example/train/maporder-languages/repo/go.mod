module example.com/repostats

go 1.26
