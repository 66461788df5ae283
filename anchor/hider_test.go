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

// A false 0 the stubs brought: compileTests cut every hidden *_test.go to
// "package <name>\n", dropping its build constraint. A hidden folder that
// holds an ignored helper (//go:build ignore, package main: a generator
// kept beside the tests) compiled in the first step, where the constraint
// held; in the second its stub was "package main" with no constraint, go
// test failed to build the folder ("found packages sum and main"), no
// binary ran and every hidden test counted failed: honest work scored 0 of
// 2. The hidden file keeps its //go:build lines wherever it is built.
func TestHiddenFileKeepsItsBuildConstraint(t *testing.T) {
	slow(t)
	t.Parallel()
	s := scoreHonest(t, "go test ./...", map[string]string{"go.mod": "module example.com/h\n\ngo 1.26\n", "sum.go": buggySum},
		map[string]string{"sum_test.go": "package sum\n\n" + sumTests, "more_test.go": "package sum\n\n" + moreTests,
			"gen_test.go": "//go:build ignore\n\npackage main\n\nfunc main() {}\n"},
		map[string]string{"sum.go": fixedSum})
	if s.Outcome != "" || s.Passed != s.Total {
		t.Errorf("honest work scored %d of %d (outcome %q) because a hidden file's stub lost its //go:build ignore", s.Passed, s.Total, s.Outcome)
	}
}
