module example.com/mealkit

go 1.26
