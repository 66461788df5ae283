module example.com/pointofsale

go 1.26
