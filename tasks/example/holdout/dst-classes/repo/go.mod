module example.com/yogastudio

go 1.26
