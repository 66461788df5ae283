package anchor

import (
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// Honest work that calls what the task's own test files declare (issue
// #26). Go compiles a package's test files with its code, so the code may
// use a helper a test file defines; go test passes it, and so must scoring.
// The scoring that rebuilt each package from a tree whose hidden test files
// held only their package clause failed to build such a package: honest
// work scored 0, with no reason given.

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

// count says why when no hidden test reported, and only then; firstLine
// finds the compiler's line in go test's JSON build output, and go's own
// complaint in a line that is no event.
func TestCountSaysWhyNoTestReported(t *testing.T) {
	hidden := map[string][]byte{"sum_test.go": hiddenSum["hidden/sum_test.go"], "sum_more_test.go": hiddenSum["hidden/sum_more_test.go"]}
	gomod := map[string][]byte{"go.mod": []byte("module example.com/s\n")}
	build := goEvents(`{"ImportPath":"example.com/s [example.com/s.test]","Action":"build-output","Output":"# example.com/s [example.com/s.test]\n"}`,
		`{"ImportPath":"example.com/s [example.com/s.test]","Action":"build-output","Output":"./sum.go:3:9: undefined: Title\n"}`,
		`{"Action":"output","Package":"example.com/s","Output":"FAIL\texample.com/s [build failed]\n"}`)
	why := firstLine(build, "build-output")
	if why != "./sum.go:3:9: undefined: Title" {
		t.Errorf("firstLine of a failed build = %q", why)
	}
	if got := firstLine([]byte("go: cannot find main module\n"), "build-output"); got != "go: cannot find main module" {
		t.Errorf("firstLine of go's own complaint = %q", got)
	}
	if s := Count(Task{Test: "go test ./..."}, nil, 1, nil, hidden, gomod, nil, why); s.Error != "no hidden test reported: "+why || s.Passed != 0 || s.Total != 2 {
		t.Errorf("nothing reported: %+v", s)
	}
	one := goEvents(`{"Action":"fail","Package":"example.com/s","Test":"TestThree"}`)
	if s := Count(Task{Test: "go test ./..."}, one, 1, nil, hidden, gomod, nil, why); s.Error != "" || s.Total != 2 {
		t.Errorf("a hidden test reported, yet the error says %q", s.Error)
	}
}
