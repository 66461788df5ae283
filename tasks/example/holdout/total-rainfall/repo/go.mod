module example.com/raingauge

go 1.26
