module example.com/coinledger

go 1.26
