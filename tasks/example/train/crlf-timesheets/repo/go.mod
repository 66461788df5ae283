module example.com/hrexport

go 1.26
