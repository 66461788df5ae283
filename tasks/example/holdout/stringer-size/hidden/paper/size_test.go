package paper

import "testing"

func TestString(t *testing.T) {
	x := Size{210, 297}
	if got := x.String(); got != "210x297 mm" {
		t.Fatalf("String = %q, want %q", got, "210x297 mm")
	}
}
