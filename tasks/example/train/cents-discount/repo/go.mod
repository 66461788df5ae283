module example.com/promo

go 1.26
