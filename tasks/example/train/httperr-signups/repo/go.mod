module example.com/eventsignup

go 1.26
