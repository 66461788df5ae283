module example.com/election

go 1.26
