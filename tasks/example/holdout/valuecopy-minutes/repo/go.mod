module example.com/boardroom

go 1.26
