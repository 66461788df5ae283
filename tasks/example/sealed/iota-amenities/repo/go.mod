module example.com/roombook

go 1.26
