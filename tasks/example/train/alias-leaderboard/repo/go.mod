module example.com/arcade

go 1.26
