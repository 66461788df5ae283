module example.com/mealprep

go 1.26
