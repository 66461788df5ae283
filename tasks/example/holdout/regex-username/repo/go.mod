module example.com/chatserver

go 1.26
