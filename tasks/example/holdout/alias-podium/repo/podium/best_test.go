package podium

import (
	"slices"
	"testing"
)

func TestBest(t *testing.T) {
	if got := Best([]int{612, 598, 640, 577, 640, 603, 590}, 3); !slices.Equal(got, []int{640, 640, 612}) {
		t.Fatalf("Best = %v", got)
	}
	if got := Best([]int{612, 598, 640, 577, 640, 603, 590}, 99); len(got) != 7 {
		t.Fatalf("Best(99) has %d values, want 7", len(got))
	}
}
