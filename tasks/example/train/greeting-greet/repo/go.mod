module example.com/frontdesk

go 1.26
