package greet

import "testing"

func TestCleanTabsAndNewlines(t *testing.T) {
	if got := Clean("\t linus\n"); got != "Linus" {
		t.Fatalf("Clean = %q, want %q", got, "Linus")
	}
}

func TestHelloEmpty(t *testing.T) {
	if got := Hello("   "); got != "Hello, !" {
		t.Fatalf("Hello of blanks = %q", got)
	}
}
