module example.com/chessclub

go 1.26
