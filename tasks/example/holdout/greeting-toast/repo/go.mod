module example.com/weddingapp

go 1.26
