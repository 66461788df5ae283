module example.com/office

go 1.26
