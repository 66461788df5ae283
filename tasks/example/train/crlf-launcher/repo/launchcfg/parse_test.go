package launchcfg

import "testing"

func TestParse(t *testing.T) {
	m := Parse("resolution= 1920x1080\nfullscreen= true\nlanguage= de\n")
	if m["resolution"] != "1920x1080" {
		t.Errorf("%s = %q, want %q", "resolution", m["resolution"], "1920x1080")
	}
	if m["fullscreen"] != "true" {
		t.Errorf("%s = %q, want %q", "fullscreen", m["fullscreen"], "true")
	}
	if m["language"] != "de" {
		t.Errorf("%s = %q, want %q", "language", m["language"], "de")
	}

}
