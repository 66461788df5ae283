module example.com/theatre

go 1.26
