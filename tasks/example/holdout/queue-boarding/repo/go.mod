module example.com/gatekeeper

go 1.26
