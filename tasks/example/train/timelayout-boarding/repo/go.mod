module example.com/airport

go 1.26
