module example.com/jobboard

go 1.26
