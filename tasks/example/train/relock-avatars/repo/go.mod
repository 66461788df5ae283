module example.com/profiles

go 1.26
