package launchcfg

import "testing"

func TestParseCRLF(t *testing.T) {
	m := Parse("# saved on Windows\r\nresolution= 1920x1080\r\nfullscreen= true\r\nlanguage= de\r\n")
	if m["resolution"] != "1920x1080" {
		t.Errorf("%s = %q, want %q", "resolution", m["resolution"], "1920x1080")
	}
	if m["fullscreen"] != "true" {
		t.Errorf("%s = %q, want %q", "fullscreen", m["fullscreen"], "true")
	}
	if m["language"] != "de" {
		t.Errorf("%s = %q, want %q", "language", m["language"], "de")
	}

	if len(m) != 3 {
		t.Errorf("Parse gave %d keys, want 3", len(m))
	}
}
