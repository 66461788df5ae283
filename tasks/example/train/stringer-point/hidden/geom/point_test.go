package geom

import "testing"

func TestString(t *testing.T) {
	x := Point{3, -2}
	if got := x.String(); got != "(3, -2)" {
		t.Fatalf("String = %q, want %q", got, "(3, -2)")
	}
}
