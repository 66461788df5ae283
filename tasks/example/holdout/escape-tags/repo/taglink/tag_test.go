package taglink

import "testing"

func TestTagURL(t *testing.T) {
	if got := TagURL("sunset"); got != "https://photos.example.com/tag/sunset" {
		t.Fatalf("TagURL = %q", got)
	}
}
