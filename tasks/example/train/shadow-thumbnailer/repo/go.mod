module example.com/imgproc

go 1.26
