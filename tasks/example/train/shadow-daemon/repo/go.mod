module example.com/appserver

go 1.26
