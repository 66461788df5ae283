module example.com/topomap

go 1.26
