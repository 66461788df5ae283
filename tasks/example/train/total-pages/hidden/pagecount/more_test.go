package pagecount

import "testing"

func TestPagesOne(t *testing.T) {
	if got := Pages([]int64{9}); got != 9 {
		t.Fatalf("Pages(9) = %v, want 9", got)
	}
}

func TestPagesMixed(t *testing.T) {
	if got := Pages([]int64{100, -4, 7, 1}); got != 104 {
		t.Fatalf("Pages(100, -4, 7, 1) = %v, want 104", got)
	}
}
