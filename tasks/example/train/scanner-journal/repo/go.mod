module example.com/sysadmin

go 1.26
