package labelcfg

import "testing"

func TestParse(t *testing.T) {
	m := Parse("width_mm= 62\ncopies= 2\ncut= yes\n")
	if m["width_mm"] != "62" {
		t.Errorf("%s = %q, want %q", "width_mm", m["width_mm"], "62")
	}
	if m["copies"] != "2" {
		t.Errorf("%s = %q, want %q", "copies", m["copies"], "2")
	}
	if m["cut"] != "yes" {
		t.Errorf("%s = %q, want %q", "cut", m["cut"], "yes")
	}

}
