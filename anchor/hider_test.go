package anchor

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"strings"
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

// addShoutTask writes a task whose hidden test file declares Shout, a
// helper the reference's Greet calls. The public test file (the same file,
// as the task ships it) declares it too, so the agent can build.
func addShoutTask(t *testing.T, suite, split, id, command, sub string) string {
	t.Helper()
	dir := filepath.Join(suite, split, id)
	shout := "package greet\n\nimport (\n\t\"strings\"\n\t\"testing\"\n)\n\n" +
		"// Shout is a helper of the tests that the code may call too.\nfunc Shout(s string) string { return strings.ToUpper(s) + \"!\" }\n\n" +
		"func TestAnn(t *testing.T) {\n\tif got := Greet(\"ann\"); got != \"HELLO, ANN!\" {\n\t\tt.Errorf(\"Greet(ann) = %q\", got)\n\t}\n}\n"
	more := "package greet\n\nimport \"testing\"\n\nfunc TestBob(t *testing.T) {\n\tif got := Greet(\"bob\"); got != Shout(\"hello, bob\") {\n\t\tt.Errorf(\"Greet(bob) = %q\", got)\n\t}\n}\n"
	writeFiles(t, dir, map[string]string{
		"task.toml":                       "prompt = \"Greet should shout.\"\ntest = " + strconvQuote(command) + "\ntimeout = \"120s\"\n",
		"repo/" + sub + "go.mod":          "module example.com/" + id + "\n\ngo 1.26\n",
		"repo/" + sub + "greet.go":        "package greet\n\nfunc Greet(name string) string { return \"hello, \" + name }\n",
		"repo/" + sub + "greet_test.go":   shout,
		"hidden/" + sub + "greet_test.go": shout,
		"hidden/" + sub + "more_test.go":  more,
		"reference/" + sub + "greet.go":   shoutingGreet,
	})
	return dir
}

const shoutingGreet = "package greet\n\nfunc Greet(name string) string { return Shout(\"hello, \" + name) }\n"

// Honest work may call what the task's own test files declare. Go compiles
// a package's test files with its code, so the code may use a helper a test
// file defines; go test passes it, and so must scoring. The scoring that
// rebuilt each package from a tree whose hidden test files held only their
// package clause failed to build such a package: honest work scored 0, with
// no reason given.
func TestHonestCodeCallsATestFilesHelper(t *testing.T) {
	slow(t)
	t.Parallel()
	e := newEnv(t)
	for _, tt := range []struct{ id, command, sub string }{
		{"shout", "go test ./...", ""},
		{"shout-sub", "cd sub && go test -count=1 ./...", "sub/"},
	} {
		task := addShoutTask(t, e.suite, "train", tt.id, tt.command, tt.sub)
		r, err := e.a.RunTask(ctx(), e.hostile(t, map[string]string{"tree/" + tt.sub + "greet.go": shoutingGreet}, nil), task, 0, true)
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%s: outcome %q, %d of %d: %s", tt.id, r.Outcome, r.Passed, r.Total, r.Error)
		if r.Score != 1 || r.Outcome != "ok" || r.Total != 2 {
			t.Errorf("%s: honest work that calls the tests' Shout scored %d of %d (outcome %q): %s", tt.id, r.Passed, r.Total, r.Outcome, r.Error)
		}
	}
}

// A scoring that counts no hidden test says why: a tree whose code does not
// build records a run whose error names the compiler's first line, file,
// line and all. A holdout run's error is kept like any other (the ledger's
// readers show it as its outcome only: internal/ledgerdb).
func TestScoringBuildFailureIsNamed(t *testing.T) {
	slow(t)
	t.Parallel()
	e := newEnv(t)
	task := addShoutTask(t, e.suite, "train", "whisper", "go test ./...", "")
	broken := "package greet\n\nfunc Greet(name string) string { return Whisper(name) }\n"
	r, err := e.a.RunTask(ctx(), e.hostile(t, map[string]string{"tree/greet.go": broken}, nil), task, 0, true)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("outcome %q, %d of %d: %s", r.Outcome, r.Passed, r.Total, r.Error)
	if r.Passed != 0 || r.Outcome != "ok" || !regexp.MustCompile(`no hidden test reported: \./greet\.go:3:\d+: undefined: Whisper`).MatchString(r.Error) {
		t.Errorf("a tree that does not build scored %d of %d (outcome %q) with error %q: want 0 and its compiler line", r.Passed, r.Total, r.Outcome, r.Error)
	}
	var stored string
	if err := e.a.db.QueryRow(`SELECT error FROM runs WHERE id = ?`, r.ID).Scan(&stored); err != nil || stored != r.Error {
		t.Errorf("the ledger keeps %q (%v), want the run's error %q", stored, err, r.Error)
	}
}

// Several shapes of the command through ScoreTree: a package go test runs
// twice (with different flags) keeps both runs; a package the command never
// tests, and a test binary that dies before any test, each say why nothing
// counted; the environment the command sets reaches the test binary.
func TestDirectRunsKeepTheCommandsShape(t *testing.T) {
	slow(t)
	t.Parallel()
	gomod := map[string]string{"go.mod": "module example.com/h\n\ngo 1.26\n", "sum.go": buggySum}
	envTest := "package sum\n\nimport (\n\t\"os\"\n\t\"testing\"\n)\n\nfunc TestMode(t *testing.T) {\n\tif os.Getenv(\"MODE\") != \"strict\" {\n\t\tt.Fatal(\"MODE unset\")\n\t}\n}\n"
	for _, tt := range []struct {
		name, command string
		hidden, fix   map[string]string
		passed, total int
		why           string
	}{
		{"run twice, each -run a half", "go test -run Empty ./...; go test -run Three ./...",
			map[string]string{"sum_test.go": "package sum\n\n" + sumTests, "more_test.go": "package sum\n\n" + moreTests},
			map[string]string{"sum.go": fixedSum}, 2, 2, ""},
		{"the environment the command sets", "MODE=strict go test ./...", map[string]string{"mode_test.go": envTest},
			nil, 1, 1, ""},
		{"a package the command never tests", "go test ./a", map[string]string{"b/sum_test.go": "package sum\n\n" + sumTests},
			map[string]string{"a/a.go": "package a\n", "b/sum.go": fixedSum}, 0, 1, "the command ran none of their packages' tests"},
		{"a binary that dies before any test", "go test ./...", map[string]string{"sum_test.go": "package sum\n\n" + sumTests},
			map[string]string{"boom.go": "package sum\n\nvar _ = boom()\n\nfunc boom() int {\n\tvar m map[string]int\n\tm[\"x\"] = 1\n\treturn 0\n}\n"},
			0, 1, "panic: assignment to entry in nil map"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			s := scoreHonest(t, tt.command, gomod, tt.hidden, tt.fix)
			if s.Outcome != "" || s.Passed != tt.passed || s.Total != tt.total || !strings.Contains(s.Error, tt.why) {
				t.Errorf("scored %d of %d (outcome %q, error %q), want %d of %d saying %q", s.Passed, s.Total, s.Outcome, s.Error, tt.passed, tt.total, tt.why)
			}
		})
	}
}
