package report

import "testing"

func TestRowNewline(t *testing.T) {
	if got := Row([]string{"a\nb", `"`}); got != "\"a\nb\",\"\"\"\"" {
		t.Fatalf("Row = %q", got)
	}
}
