module example.com/grocer

go 1.26
