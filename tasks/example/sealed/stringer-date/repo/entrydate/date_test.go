package entrydate

import "testing"

func TestString(t *testing.T) {
	x := Date{2024, 2, 9}
	if got := x.String(); got != "2024-02-09" {
		t.Fatalf("String = %q, want %q", got, "2024-02-09")
	}
}
