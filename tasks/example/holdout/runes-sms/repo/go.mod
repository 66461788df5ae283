module example.com/notifier

go 1.26
