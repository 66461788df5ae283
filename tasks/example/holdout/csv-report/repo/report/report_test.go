package report

import "testing"

func TestRow(t *testing.T) {
	cases := map[string][]string{
		"a,b":             {"a", "b"},
		`"x,y",z`:         {"x,y", "z"},
		`"say ""hi""",ok`: {`say "hi"`, "ok"},
	}
	for want, in := range cases {
		if got := Row(in); got != want {
			t.Errorf("Row(%q) = %s, want %s", in, got, want)
		}
	}
}
