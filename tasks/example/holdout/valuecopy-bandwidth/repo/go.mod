module example.com/isp

go 1.26
