package profilelink

import "testing"

func TestProfileURL(t *testing.T) {
	if got := ProfileURL("ada"); got != "https://social.example.org/users/ada" {
		t.Fatalf("ProfileURL = %q", got)
	}
}
