module example.com/firewallui

go 1.26
