package hashtags

import "testing"

func TestTrending(t *testing.T) {
	if got := Trending(map[string]int{"#go": 4}); got != "#go: 4\n" {
		t.Fatalf("Trending = %q", got)
	}
	if got := Trending(nil); got != "" {
		t.Fatalf("Trending(nil) = %q", got)
	}
}
