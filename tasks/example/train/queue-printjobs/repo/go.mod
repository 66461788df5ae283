module example.com/printserver

go 1.26
