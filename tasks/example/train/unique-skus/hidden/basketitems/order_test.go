package basketitems

import (
	"slices"
	"testing"
)

func TestCompactOrder(t *testing.T) {
	if got := Compact(nil); len(got) != 0 {
		t.Fatalf("Compact(nil) = %v", got)
	}
	in := []string{"eggs", "milk", "bread", "eggs", "jam", "milk", "tea", "butter"}
	want := []string{"eggs", "milk", "bread", "jam", "tea", "butter"}
	for i := 0; i < 20; i++ {
		if got := Compact(in); !slices.Equal(got, want) {
			t.Fatalf("Compact = %v, want %v", got, want)
		}
	}
}
