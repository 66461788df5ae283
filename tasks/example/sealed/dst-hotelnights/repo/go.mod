module example.com/innkeeper

go 1.26
