module example.com/videowall

go 1.26
