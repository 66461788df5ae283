module example.com/genomics

go 1.26
