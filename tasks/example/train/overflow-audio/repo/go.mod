module example.com/soundlab

go 1.26
