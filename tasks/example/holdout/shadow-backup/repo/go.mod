module example.com/archiver

go 1.26
