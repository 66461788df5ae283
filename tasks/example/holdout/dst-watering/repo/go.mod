module example.com/gardenbot

go 1.26
