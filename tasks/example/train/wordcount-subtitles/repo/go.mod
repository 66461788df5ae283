module example.com/subtitler

go 1.26
