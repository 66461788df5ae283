module example.com/racetiming

go 1.26
