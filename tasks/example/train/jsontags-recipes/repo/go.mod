module example.com/cookbook

go 1.26
