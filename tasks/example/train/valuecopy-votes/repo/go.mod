module example.com/liveshow

go 1.26
