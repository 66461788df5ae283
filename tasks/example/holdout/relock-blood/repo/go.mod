module example.com/bloodbank

go 1.26
