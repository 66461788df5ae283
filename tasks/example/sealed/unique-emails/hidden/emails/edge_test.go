package emails

import (
	"slices"
	"testing"
)

func TestDistinctEdge(t *testing.T) {
	if got := Distinct(nil); len(got) != 0 {
		t.Fatalf("Distinct(nil) = %v", got)
	}
	for i := 0; i < 20; i++ {
		if got := Distinct([]string{"b", "a", "b", "c", "a"}); !slices.Equal(got, []string{"b", "a", "c"}) {
			t.Fatalf("Distinct = %v", got)
		}
	}
}
