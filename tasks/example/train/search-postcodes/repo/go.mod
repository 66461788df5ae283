module example.com/postal

go 1.26
