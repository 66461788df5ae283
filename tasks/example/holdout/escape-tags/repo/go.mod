module example.com/photoblog

go 1.26
