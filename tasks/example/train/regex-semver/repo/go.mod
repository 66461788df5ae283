module example.com/releasebot

go 1.26
