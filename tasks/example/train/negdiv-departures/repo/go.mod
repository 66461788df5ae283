module example.com/railboard

go 1.26
