module example.com/gamelauncher

go 1.26
