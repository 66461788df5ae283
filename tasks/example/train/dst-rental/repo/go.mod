module example.com/carhire

go 1.26
