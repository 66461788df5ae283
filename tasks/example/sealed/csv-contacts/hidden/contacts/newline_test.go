package contacts

import "testing"

func TestRecordNewline(t *testing.T) {
	if got := Record([]string{"a\nb", `"`}); got != "\"a\nb\",\"\"\"\"" {
		t.Fatalf("Record = %q", got)
	}
}
