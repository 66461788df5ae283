module example.com/giftshop

go 1.26
