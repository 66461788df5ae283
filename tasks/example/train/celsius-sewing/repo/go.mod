module example.com/patterns

go 1.26
