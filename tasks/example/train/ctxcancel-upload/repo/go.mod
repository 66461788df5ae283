module example.com/cloudsync

go 1.26
