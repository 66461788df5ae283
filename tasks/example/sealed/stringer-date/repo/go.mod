module example.com/diary

go 1.26
