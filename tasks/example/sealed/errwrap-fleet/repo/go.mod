module example.com/logistics

go 1.26
