package tags

import (
	"slices"
	"testing"
)

func TestUniqueOrder(t *testing.T) {
	in := []string{"pear", "apple", "pear", "fig", "apple", "kiwi", "fig", "lime"}
	want := []string{"pear", "apple", "fig", "kiwi", "lime"}
	for i := 0; i < 20; i++ {
		if got := Unique(in); !slices.Equal(got, want) {
			t.Fatalf("Unique = %v, want %v (first occurrences, in order)", got, want)
		}
	}
}
