module example.com/sshgate

go 1.26
