module example.com/imagehost

go 1.26
