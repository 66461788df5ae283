package leaderboard

import (
	"slices"
	"testing"
)

func TestTopKeepsInput(t *testing.T) {
	xs := []int{120, 450, 90, 800, 310, 450}
	got := Top(xs, 2)
	if !slices.Equal(xs, []int{120, 450, 90, 800, 310, 450}) {
		t.Fatalf("Top changed its input to %v", xs)
	}
	got[0] = -1
	if !slices.Equal(xs, []int{120, 450, 90, 800, 310, 450}) {
		t.Fatalf("the result of Top shares memory with the input: %v", xs)
	}
}
