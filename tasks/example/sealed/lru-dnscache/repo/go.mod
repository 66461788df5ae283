module example.com/resolver

go 1.26
