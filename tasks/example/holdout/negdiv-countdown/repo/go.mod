module example.com/launchpad

go 1.26
