module example.com/swimclub

go 1.26
