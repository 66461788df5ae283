module example.com/servicedesk

go 1.26
