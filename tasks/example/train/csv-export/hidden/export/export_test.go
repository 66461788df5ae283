package export

import "testing"

func TestLine(t *testing.T) {
	cases := map[string][]string{
		"a,b":             {"a", "b"},
		`"x,y",z`:         {"x,y", "z"},
		`"say ""hi""",ok`: {`say "hi"`, "ok"},
	}
	for want, in := range cases {
		if got := Line(in); got != want {
			t.Errorf("Line(%q) = %s, want %s", in, got, want)
		}
	}
}
