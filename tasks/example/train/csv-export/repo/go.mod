module example.com/crm

go 1.26
