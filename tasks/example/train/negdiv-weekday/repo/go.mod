module example.com/planner

go 1.26
