package locale

import "testing"

func TestParseCRLF(t *testing.T) {
	m := Parse("# saved on Windows\r\ngreeting: Hallo\r\nfarewell: Tschuess\r\nyes: Ja\r\n")
	if m["greeting"] != "Hallo" {
		t.Errorf("%s = %q, want %q", "greeting", m["greeting"], "Hallo")
	}
	if m["farewell"] != "Tschuess" {
		t.Errorf("%s = %q, want %q", "farewell", m["farewell"], "Tschuess")
	}
	if m["yes"] != "Ja" {
		t.Errorf("%s = %q, want %q", "yes", m["yes"], "Ja")
	}

	if len(m) != 3 {
		t.Errorf("Parse gave %d keys, want 3", len(m))
	}
}
