module example.com/pizzeria

go 1.26
