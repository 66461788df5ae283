package keyframes

import "testing"

func TestFrameAtAbsent(t *testing.T) {
	xs := []int{24, 96}
	for _, x := range []int{0, 25, 97, 1000} {
		if got := FrameAt(xs, x); got != -1 {
			t.Errorf("FrameAt(%v) = %d, want -1", x, got)
		}
	}
	if FrameAt(nil, 0) != -1 || FrameAt([]int{0}, 0) != 0 {
		t.Error("empty and one-element slices")
	}
}
