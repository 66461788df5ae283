package semver

import "testing"

func TestString(t *testing.T) {
	x := Version{1, 4, 2}
	if got := x.String(); got != "v1.4.2" {
		t.Fatalf("String = %q, want %q", got, "v1.4.2")
	}
}
