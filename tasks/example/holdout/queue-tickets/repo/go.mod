module example.com/helpdesk

go 1.26
