package reviewwords

import "testing"

func TestFrequencies(t *testing.T) {
	got := Frequencies("Great app. GREAT support, great!")
	if got["great"] != 3 || got["app"] != 1 || got["support"] != 1 {
		t.Fatalf("Frequencies = %v; want great:3 app:1 support:1 (case and punctuation ignored)", got)
	}
}
