package errcodes

import (
	"slices"
	"testing"
)

func TestFirstSeen(t *testing.T) {
	if got := FirstSeen(nil); len(got) != 0 {
		t.Fatalf("FirstSeen(nil) = %v", got)
	}
	in := []int{500, 500}
	want := []int{500}
	for i := 0; i < 20; i++ {
		if got := FirstSeen(in); !slices.Equal(got, want) {
			t.Fatalf("FirstSeen = %v, want %v", got, want)
		}
	}
}
