module example.com/gamecoins

go 1.26
