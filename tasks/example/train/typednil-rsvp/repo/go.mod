module example.com/invitations

go 1.26
