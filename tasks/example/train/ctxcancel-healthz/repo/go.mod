module example.com/deployer

go 1.26
