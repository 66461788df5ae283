module example.com/themer

go 1.26
