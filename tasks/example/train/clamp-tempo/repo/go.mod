module example.com/metronome

go 1.26
