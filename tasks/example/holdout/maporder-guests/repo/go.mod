module example.com/eventdesk

go 1.26
