module example.com/birdwatch

go 1.26
