module example.com/viewer

go 1.26
