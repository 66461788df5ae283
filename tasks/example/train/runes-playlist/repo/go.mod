module example.com/jukebox

go 1.26
