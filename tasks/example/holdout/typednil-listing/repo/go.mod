module example.com/rentals

go 1.26
