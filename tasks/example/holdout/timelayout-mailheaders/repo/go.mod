module example.com/mailarchive

go 1.26
