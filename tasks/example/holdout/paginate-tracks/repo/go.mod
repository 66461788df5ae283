module example.com/streamingui

go 1.26
