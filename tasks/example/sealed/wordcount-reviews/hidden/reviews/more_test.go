package reviews

import "testing"

func TestTallyMore(t *testing.T) {
	got := Tally("Don't stop, don't! 2 times: 2")
	if got["don't"] != 2 || got["stop"] != 1 || got["2"] != 2 || len(got) != 4 {
		t.Fatalf("Tally = %v", got)
	}
	if n := len(Tally(" ... !!! ")); n != 0 {
		t.Fatalf("punctuation only gave %d words", n)
	}
}
