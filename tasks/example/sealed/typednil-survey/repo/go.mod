module example.com/feedback

go 1.26
