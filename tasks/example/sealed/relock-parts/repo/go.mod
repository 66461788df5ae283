module example.com/workshop

go 1.26
