module example.com/museumtix

go 1.26
