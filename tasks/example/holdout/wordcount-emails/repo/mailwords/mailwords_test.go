package mailwords

import "testing"

func TestWordCounts(t *testing.T) {
	got := WordCounts("Hello team. Hello, TEAM! hello")
	if got["hello"] != 3 || got["team"] != 2 {
		t.Fatalf("WordCounts = %v; want hello:3 team:2 (case and punctuation ignored)", got)
	}
}
