package labelcfg

import "testing"

func TestParseCRLF(t *testing.T) {
	m := Parse("# saved on Windows\r\nwidth_mm= 62\r\ncopies= 2\r\ncut= yes\r\n")
	if m["width_mm"] != "62" {
		t.Errorf("%s = %q, want %q", "width_mm", m["width_mm"], "62")
	}
	if m["copies"] != "2" {
		t.Errorf("%s = %q, want %q", "copies", m["copies"], "2")
	}
	if m["cut"] != "yes" {
		t.Errorf("%s = %q, want %q", "cut", m["cut"], "yes")
	}

	if len(m) != 3 {
		t.Errorf("Parse gave %d keys, want 3", len(m))
	}
}
