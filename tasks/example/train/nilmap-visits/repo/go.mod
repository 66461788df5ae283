module example.com/analytics

go 1.26
