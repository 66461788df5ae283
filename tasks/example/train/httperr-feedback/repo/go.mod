module example.com/feedbackbox

go 1.26
