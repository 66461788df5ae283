module example.com/searchui

go 1.26
