module example.com/datacheck

go 1.26
