package leaderboard

import (
	"slices"
	"testing"
)

func TestTop(t *testing.T) {
	if got := Top([]int{120, 450, 90, 800, 310, 450}, 3); !slices.Equal(got, []int{800, 450, 450}) {
		t.Fatalf("Top = %v", got)
	}
	if got := Top([]int{120, 450, 90, 800, 310, 450}, 99); len(got) != 6 {
		t.Fatalf("Top(99) has %d values, want 6", len(got))
	}
}
