module example.com/audio

go 1.26
