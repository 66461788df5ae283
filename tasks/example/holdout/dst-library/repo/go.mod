module example.com/citylibrary

go 1.26
