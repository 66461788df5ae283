module example.com/mailer

go 1.26
