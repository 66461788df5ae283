module example.com/alarmclock

go 1.26
