package speeches

import "testing"

func TestTally(t *testing.T) {
	got := Tally("We shall fight. We shall never surrender! WE")
	if got["we"] != 3 || got["shall"] != 2 || got["surrender"] != 1 {
		t.Fatalf("Tally = %v; want we:3 shall:2 surrender:1 (case and punctuation ignored)", got)
	}
}
