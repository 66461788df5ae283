package locale

import "testing"

func TestParse(t *testing.T) {
	m := Parse("greeting: Hallo\nfarewell: Tschuess\nyes: Ja\n")
	if m["greeting"] != "Hallo" {
		t.Errorf("%s = %q, want %q", "greeting", m["greeting"], "Hallo")
	}
	if m["farewell"] != "Tschuess" {
		t.Errorf("%s = %q, want %q", "farewell", m["farewell"], "Tschuess")
	}
	if m["yes"] != "Ja" {
		t.Errorf("%s = %q, want %q", "yes", m["yes"], "Ja")
	}

}
