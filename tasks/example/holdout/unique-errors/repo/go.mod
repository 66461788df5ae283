module example.com/logtriage

go 1.26
