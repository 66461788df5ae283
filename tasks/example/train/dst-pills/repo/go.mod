module example.com/medreminder

go 1.26
