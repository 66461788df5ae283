module example.com/musicapi

go 1.26
