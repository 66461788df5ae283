module example.com/captions

go 1.26
