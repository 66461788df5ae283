package lyrics

import "testing"

func TestWordsMore(t *testing.T) {
	got := Words("Don't stop, don't! 2 times: 2")
	if got["don't"] != 2 || got["stop"] != 1 || got["2"] != 2 || len(got) != 4 {
		t.Fatalf("Words = %v", got)
	}
	if n := len(Words(" ... !!! ")); n != 0 {
		t.Fatalf("punctuation only gave %d words", n)
	}
}
