module example.com/batchjobs

go 1.26
