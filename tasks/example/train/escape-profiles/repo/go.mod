module example.com/socialweb

go 1.26
