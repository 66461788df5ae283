package podium

import (
	"slices"
	"testing"
)

func TestBestKeepsInput(t *testing.T) {
	xs := []int{612, 598, 640, 577, 640, 603, 590}
	got := Best(xs, 2)
	if !slices.Equal(xs, []int{612, 598, 640, 577, 640, 603, 590}) {
		t.Fatalf("Best changed its input to %v", xs)
	}
	got[0] = -1
	if !slices.Equal(xs, []int{612, 598, 640, 577, 640, 603, 590}) {
		t.Fatalf("the result of Best shares memory with the input: %v", xs)
	}
}
