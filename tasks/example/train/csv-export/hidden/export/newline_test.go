package export

import "testing"

func TestLineNewline(t *testing.T) {
	if got := Line([]string{"a\nb", `"`}); got != "\"a\nb\",\"\"\"\"" {
		t.Fatalf("Line = %q", got)
	}
}
