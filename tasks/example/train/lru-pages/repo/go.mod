module example.com/textedit

go 1.26
