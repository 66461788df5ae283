module example.com/tailor

go 1.26
