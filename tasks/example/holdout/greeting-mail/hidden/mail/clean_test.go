package mail

import "testing"

func TestCleanTabsAndNewlines(t *testing.T) {
	if got := Clean("\t linus\n"); got != "Linus" {
		t.Fatalf("Clean = %q, want %q", got, "Linus")
	}
}

func TestSaluteEmpty(t *testing.T) {
	if got := Salute("   "); got != "Dear, !" {
		t.Fatalf("Salute of blanks = %q", got)
	}
}
