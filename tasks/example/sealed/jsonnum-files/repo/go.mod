module example.com/storagesvc

go 1.26
