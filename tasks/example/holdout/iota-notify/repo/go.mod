module example.com/alerts

go 1.26
