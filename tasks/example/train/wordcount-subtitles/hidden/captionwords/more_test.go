package captionwords

import "testing"

func TestCountMore(t *testing.T) {
	got := Count("I'm fine... I'M FINE? 42 - 42")
	if got["i'm"] != 2 || got["fine"] != 2 || got["42"] != 2 || len(got) != 3 {
		t.Fatalf("Count = %v", got)
	}
	if n := len(Count(" -- ?! ")); n != 0 {
		t.Fatalf("punctuation only gave %d words", n)
	}
}
