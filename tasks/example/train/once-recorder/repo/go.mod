module example.com/screencast

go 1.26
