module example.com/school

go 1.26
