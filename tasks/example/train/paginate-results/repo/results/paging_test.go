package results

import (
	"slices"
	"testing"
)

func TestSlice(t *testing.T) {
	items := []string{"r1", "r2", "r3", "r4", "r5", "r6", "r7"}[:6]
	if got := Slice(items, 2, 3); !slices.Equal(got, items[3:6]) {
		t.Fatalf("Slice(2) = %v", got)
	}
	if got := NumPages(6, 3); got != 2 {
		t.Fatalf("NumPages(6, 3) = %d, want 2", got)
	}
}
