package tsv

import "testing"

func TestRecord(t *testing.T) {
	for _, c := range []struct {
		in   []string
		want string
	}{
		{[]string{"chr1", "12345", "A"}, "chr1\t12345\tA"},
		{[]string{"chr2", "x\ty", "G"}, "chr2\t\"x\ty\"\tG"},
	} {
		if got := Record(c.in); got != c.want {
			t.Errorf("Record(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}
