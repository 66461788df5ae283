module example.com/filmcredits

go 1.26
