module example.com/classroom

go 1.26
