module example.com/callcenter

go 1.26
