module example.com/plotter

go 1.26
