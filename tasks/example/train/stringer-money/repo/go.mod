module example.com/ledgerbook

go 1.26
