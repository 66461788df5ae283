module example.com/issuebot

go 1.26
