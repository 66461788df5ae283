module example.com/appstore

go 1.26
