module example.com/buildtool

go 1.26
