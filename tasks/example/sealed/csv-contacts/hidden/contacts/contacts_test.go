package contacts

import "testing"

func TestRecord(t *testing.T) {
	cases := map[string][]string{
		"a,b":             {"a", "b"},
		`"x,y",z`:         {"x,y", "z"},
		`"say ""hi""",ok`: {`say "hi"`, "ok"},
	}
	for want, in := range cases {
		if got := Record(in); got != want {
			t.Errorf("Record(%q) = %s, want %s", in, got, want)
		}
	}
}
