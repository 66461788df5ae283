module example.com/landscape

go 1.26
