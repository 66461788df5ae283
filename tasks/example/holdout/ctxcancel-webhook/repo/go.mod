module example.com/hookrunner

go 1.26
