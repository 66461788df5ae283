module example.com/podcast

go 1.26
