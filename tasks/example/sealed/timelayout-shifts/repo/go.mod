module example.com/rota

go 1.26
