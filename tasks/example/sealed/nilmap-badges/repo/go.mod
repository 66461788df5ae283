module example.com/forum

go 1.26
