module example.com/cinema

go 1.26
