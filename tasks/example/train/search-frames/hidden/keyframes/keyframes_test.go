package keyframes

import "testing"

func TestFrameAt(t *testing.T) {
	xs := []int{0, 24, 48, 96, 120, 240, 480, 960}
	for i, x := range xs {
		if got := FrameAt(xs, x); got != i {
			t.Errorf("FrameAt(%v) = %d, want %d", x, got, i)
		}
	}
}
