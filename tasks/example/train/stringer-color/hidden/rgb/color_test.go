package rgb

import "testing"

func TestString(t *testing.T) {
	x := Color{255, 128, 0}
	if got := x.String(); got != "#ff8000" {
		t.Fatalf("String = %q, want %q", got, "#ff8000")
	}
}
