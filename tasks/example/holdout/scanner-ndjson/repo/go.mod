module example.com/exporter

go 1.26
