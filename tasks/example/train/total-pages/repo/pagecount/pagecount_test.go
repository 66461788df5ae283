package pagecount

import "testing"

func TestPagesEmpty(t *testing.T) {
	if got := Pages(nil); got != 0 {
		t.Fatalf("Pages(nil) = %v, want 0", got)
	}
}

func TestPagesThree(t *testing.T) {
	if got := Pages([]int64{12, 3, 40}); got != 55 {
		t.Fatalf("Pages(12, 3, 40) = %v, want 55", got)
	}
}
