module example.com/storefront

go 1.26
