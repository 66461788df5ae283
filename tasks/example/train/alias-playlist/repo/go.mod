module example.com/radiostation

go 1.26
