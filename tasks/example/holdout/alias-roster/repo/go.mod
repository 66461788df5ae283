module example.com/teamsheet

go 1.26
