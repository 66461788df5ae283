module example.com/scheduler

go 1.26
