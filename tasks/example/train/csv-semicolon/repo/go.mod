module example.com/eurocsv

go 1.26
