package wikilink

import "testing"

func TestPageURL(t *testing.T) {
	if got := PageURL("Onboarding"); got != "https://wiki.example.net/page/Onboarding" {
		t.Fatalf("PageURL = %q", got)
	}
}
