module example.com/printing

go 1.26
