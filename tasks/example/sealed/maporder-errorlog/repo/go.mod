module example.com/observability

go 1.26
