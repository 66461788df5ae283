package laps

import "testing"

func TestString(t *testing.T) {
	x := Lap{1, 23, 456}
	if got := x.String(); got != "1:23.456" {
		t.Fatalf("String = %q, want %q", got, "1:23.456")
	}
}
