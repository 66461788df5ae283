module example.com/discussion

go 1.26
