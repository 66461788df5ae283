package semis

import "testing"

func TestRowQuotes(t *testing.T) {
	for _, c := range []struct {
		in   []string
		want string
	}{
		{[]string{"say \"hi\"", "ok"}, "\"say \"\"hi\"\"\";ok"},
		{[]string{"two\nlines", "x"}, "\"two\nlines\";x"},
		{[]string{"\"", ";"}, "\"\"\"\";\";\""},
	} {
		if got := Row(c.in); got != c.want {
			t.Errorf("Row(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}
