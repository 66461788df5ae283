module example.com/webmail

go 1.26
