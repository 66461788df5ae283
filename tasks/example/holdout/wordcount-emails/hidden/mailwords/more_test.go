package mailwords

import "testing"

func TestWordCountsMore(t *testing.T) {
	got := WordCounts("Can't make it (sorry); can't. Q3, q3")
	if got["can't"] != 2 || got["make"] != 1 || got["it"] != 1 || got["sorry"] != 1 || got["q3"] != 2 || len(got) != 5 {
		t.Fatalf("WordCounts = %v", got)
	}
	if n := len(WordCounts(" -- ?! ")); n != 0 {
		t.Fatalf("punctuation only gave %d words", n)
	}
}
