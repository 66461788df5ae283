package packing

import "testing"

func TestPackingList(t *testing.T) {
	got := PackingList("Box 7", []string{"cables", "adapter"})
	if want := "Box 7\n[1] cables\n[2] adapter\n"; got != want {
		t.Fatalf("PackingList = %q, want %q", got, want)
	}
}
