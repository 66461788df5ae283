package basketitems

import (
	"slices"
	"testing"
)

func TestCompact(t *testing.T) {
	if got := Compact(nil); len(got) != 0 {
		t.Fatalf("Compact(nil) = %v", got)
	}
	in := []string{"milk"}
	want := []string{"milk"}
	for i := 0; i < 20; i++ {
		if got := Compact(in); !slices.Equal(got, want) {
			t.Fatalf("Compact = %v, want %v", got, want)
		}
	}
}
