module example.com/onboarding

go 1.26
