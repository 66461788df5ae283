module example.com/karaoke

go 1.26
