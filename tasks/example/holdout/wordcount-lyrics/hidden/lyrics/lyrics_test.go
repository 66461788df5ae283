package lyrics

import "testing"

func TestWords(t *testing.T) {
	got := Words("The cat saw the dog. The END!")
	if got["the"] != 3 || got["end"] != 1 || got["dog"] != 1 {
		t.Fatalf("Words = %v; want the:3 end:1 dog:1 (case and punctuation ignored)", got)
	}
}
