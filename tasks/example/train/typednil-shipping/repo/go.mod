module example.com/postage

go 1.26
