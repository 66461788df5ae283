module example.com/racebibs

go 1.26
