package wordfreq

import "testing"

func TestCountMore(t *testing.T) {
	got := Count("Don't stop, don't! 2 times: 2")
	if got["don't"] != 2 || got["stop"] != 1 || got["2"] != 2 || len(got) != 4 {
		t.Fatalf("Count = %v", got)
	}
	if n := len(Count(" ... !!! ")); n != 0 {
		t.Fatalf("punctuation only gave %d words", n)
	}
}
