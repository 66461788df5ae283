module example.com/teamwiki

go 1.26
