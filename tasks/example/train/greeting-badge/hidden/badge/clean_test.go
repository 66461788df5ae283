package badge

import "testing"

func TestCleanTabsAndNewlines(t *testing.T) {
	if got := Clean("\t linus\n"); got != "Linus" {
		t.Fatalf("Clean = %q, want %q", got, "Linus")
	}
}

func TestWelcomeEmpty(t *testing.T) {
	if got := Welcome("   "); got != "Welcome, !" {
		t.Fatalf("Welcome of blanks = %q", got)
	}
}
