module example.com/solarfarm

go 1.26
