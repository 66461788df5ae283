module example.com/secrets

go 1.26
