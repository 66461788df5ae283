module example.com/flagship

go 1.26
