module example.com/importer

go 1.26
