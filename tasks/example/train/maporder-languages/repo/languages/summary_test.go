package languages

import "testing"

func TestSummary(t *testing.T) {
	if got := Summary(map[string]int{"Go": 4}); got != "Go: 4\n" {
		t.Fatalf("Summary = %q", got)
	}
	if got := Summary(nil); got != "" {
		t.Fatalf("Summary(nil) = %q", got)
	}
}
