module example.com/microblog

go 1.26
