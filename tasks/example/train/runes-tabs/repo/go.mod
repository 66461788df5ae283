module example.com/browser

go 1.26
