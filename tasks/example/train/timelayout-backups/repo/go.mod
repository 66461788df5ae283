module example.com/snapshotter

go 1.26
