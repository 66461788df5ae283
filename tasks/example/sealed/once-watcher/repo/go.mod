module example.com/devtools

go 1.26
