module example.com/pkgindex

go 1.26
