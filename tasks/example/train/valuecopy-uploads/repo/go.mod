module example.com/mediahub

go 1.26
