module example.com/teamcal

go 1.26
