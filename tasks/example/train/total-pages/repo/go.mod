module example.com/printqueue

go 1.26
