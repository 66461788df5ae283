package guests

import (
	"slices"
	"testing"
)

func TestDedupeEdge(t *testing.T) {
	if got := Dedupe(nil); len(got) != 0 {
		t.Fatalf("Dedupe(nil) = %v", got)
	}
	for i := 0; i < 20; i++ {
		if got := Dedupe([]string{"b", "a", "b", "c", "a"}); !slices.Equal(got, []string{"b", "a", "c"}) {
			t.Fatalf("Dedupe = %v", got)
		}
	}
}
