module example.com/party

go 1.26
