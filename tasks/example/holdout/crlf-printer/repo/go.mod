module example.com/labelprinter

go 1.26
