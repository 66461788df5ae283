package captionwords

import "testing"

func TestCount(t *testing.T) {
	got := Count("Run! Run, Forrest, run.")
	if got["run"] != 3 || got["forrest"] != 1 {
		t.Fatalf("Count = %v; want run:3 forrest:1 (case and punctuation ignored)", got)
	}
}
