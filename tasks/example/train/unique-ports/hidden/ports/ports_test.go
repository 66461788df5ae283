package ports

import (
	"slices"
	"testing"
)

func TestUnique(t *testing.T) {
	if got := Unique(nil); len(got) != 0 {
		t.Fatalf("Unique(nil) = %v", got)
	}
	in := []int{22, 22, 22}
	want := []int{22}
	for i := 0; i < 20; i++ {
		if got := Unique(in); !slices.Equal(got, want) {
			t.Fatalf("Unique = %v, want %v", got, want)
		}
	}
}
