package tsv

import "testing"

func TestRecordQuotes(t *testing.T) {
	for _, c := range []struct {
		in   []string
		want string
	}{
		{[]string{"gene \"BRCA1\"", "+"}, "\"gene \"\"BRCA1\"\"\"\t+"},
		{[]string{"a\nb", "\"quoted\""}, "\"a\nb\"\t\"\"\"quoted\"\"\""},
	} {
		if got := Record(c.in); got != c.want {
			t.Errorf("Record(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}
