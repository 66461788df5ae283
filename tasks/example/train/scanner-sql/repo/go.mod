module example.com/dbtools

go 1.26
