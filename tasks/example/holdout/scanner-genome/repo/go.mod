module example.com/bioinfo

go 1.26
