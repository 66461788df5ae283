module example.com/household

go 1.26
