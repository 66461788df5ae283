package anchor

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"testing"
)

var update = flag.Bool("update", false, "rewrite testdata/hide.golden from the hider as it renders now")

// TestHiderGolden renders the hider (hide.sh) for a fixed small task and
// compares it with testdata/hide.golden byte for byte; go test -run
// TestHiderGolden -update rewrites the golden file, for a reviewed change.
func TestHiderGolden(t *testing.T) {
	got, err := hideScript([]string{"calc/calc_test.go", "calc/more_test.go", "it's here/x_test.go"})
	if err != nil {
		t.Fatal(err)
	}
	golden := filepath.Join("testdata", "hide.golden")
	if *update {
		if err := os.WriteFile(golden, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("the hider renders\n%s\nwant (%s)\n%s", got, golden, want)
	}
}

// TestHiderMatchesTheConcatenation: the hider rendered from hide.sh is the
// script compileTests built by string concatenation before it was a file,
// byte for byte; the wants were captured from that code.
func TestHiderMatchesTheConcatenation(t *testing.T) {
	tail := "*) exit 0 ;;\nesac\ni=0\n" +
		"until (set -C; { printf '%s\\0' \"$PWD\"; env -0; } >/work/bins/$i.env) 2>/dev/null; do\n" +
		"\t[ -e /work/bins/$i.env ] || exit 1\n\ti=$((i+1))\ndone\n" +
		"cp \"$1\" /work/bins/$i.test && shift && printf '%s\\0' \"$@\" >/work/bins/$i.args\n"
	for _, tt := range []struct {
		tests []string
		want  string
	}{
		{[]string{"calc_test.go"}, "#!/bin/sh\ncase \"$PWD\" in\n'/work/task') ;;\n" + tail},
		{[]string{"a/b_test.go", "it's/x_test.go"},
			"#!/bin/sh\ncase \"$PWD\" in\n'/work/task/a') ;;\n'/work/task/it'\\''s') ;;\n" + tail},
		{[]string{"sub/mod/p_test.go", "sub/mod/q_test.go", "z y/w_test.go"},
			"#!/bin/sh\ncase \"$PWD\" in\n'/work/task/sub/mod') ;;\n'/work/task/sub/mod') ;;\n'/work/task/z y') ;;\n" +
				tail},
	} {
		got, err := hideScript(tt.tests)
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != tt.want {
			t.Errorf("%q: the hider renders\n%q\nthe concatenation made\n%q", tt.tests, got, tt.want)
		}
	}
}
