package reviews

import "testing"

func TestTally(t *testing.T) {
	got := Tally("The cat saw the dog. The END!")
	if got["the"] != 3 || got["end"] != 1 || got["dog"] != 1 {
		t.Fatalf("Tally = %v; want the:3 end:1 dog:1 (case and punctuation ignored)", got)
	}
}
