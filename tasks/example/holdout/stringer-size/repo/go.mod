module example.com/printshop

go 1.26
