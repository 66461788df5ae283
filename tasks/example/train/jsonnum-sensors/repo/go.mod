module example.com/iotgateway

go 1.26
