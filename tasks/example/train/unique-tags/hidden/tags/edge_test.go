package tags

import (
	"slices"
	"testing"
)

func TestUniqueEdge(t *testing.T) {
	if got := Unique(nil); len(got) != 0 {
		t.Fatalf("Unique(nil) = %v", got)
	}
	for i := 0; i < 20; i++ {
		if got := Unique([]string{"b", "a", "b", "c", "a"}); !slices.Equal(got, []string{"b", "a", "c"}) {
			t.Fatalf("Unique = %v", got)
		}
	}
}
