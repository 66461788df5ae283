module example.com/photos

go 1.26
