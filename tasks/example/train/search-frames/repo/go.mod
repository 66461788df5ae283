module example.com/videoedit

go 1.26
