package anchor

import (
	"path/filepath"
	"strings"
	"testing"
)

// Red-team attacks, sixth round: on scoring that compiles every test
// binary first (compileTests: /opt/score/hide copies each binary out in a
// sandbox where no agent code runs) and runs those binaries on a tree whose
// hidden test files hold only their package clause. Each test runs through
// the real anchor and bubblewrap (or ScoreTree itself) and states the
// secure behaviour; a failing test is an attack that works (or a false 0).
// Failing when written: CanaryToldByItsBehaviour, AnswerKeyReadFromTheCompiledTest,
// MovedTreeMissesScoringsBinary, StubDropsTheBuildConstraint, ModuleInASubfolder.
// Fixed: MovedTreeMissesScoringsBinary (the hider refuses a folder outside
// /work/task), StubDropsTheBuildConstraint (stubs keep build lines),
// ModuleInASubfolder (keys by the nearest go.mod), CanaryToldByItsBehaviour
// (issue 21: the canary's body is a neighbour's, so it calls the code under
// test too). Open, skipped with the reason: AnswerKeyReadFromTheCompiledTest.
// Passing regressions: HonestShapesScoreFully, NoAgentCodeRunsWhileCompiling.
// Since #26 the scoring sandbox runs no go test: it runs the binaries copied
// in the first sandbox directly, through test2json, on a tree without the
// hidden test files (honest_test.go); these tests hold it to the same bar.

// behaviourForger (package sum, a non-test file) tells the canary not by
// its name or its file but by what it does: the canary was the one test
// that never called the code under test (its body only asked t.Name()). The
// forger runs in the hidden test binary (scoring's own, compiled in step 1)
// from a package variable: it reads the test names from its own binary
// (testNames, attack_test.go), runs the binary once per test
// (-test.run=^Name$) with SUM_PROBE set, and Sum, when SUM_PROBE is set,
// leaves a marker file. A test that left no marker is the canary: it is
// reported failed, every other test passed (test2json framing built from
// rune(22), the exit one call away: the screen sees neither). No guess is
// needed, and nothing of the hidden source is read.
const behaviourForger = "package sum\n\nimport (\n\t\"debug/elf\"\n\t\"debug/gosym\"\n\t\"fmt\"\n\t\"os\"\n\t\"os/exec\"\n\t\"regexp\"\n\t\"strings\"\n)\n\n" +
	"var _ = forge()\n\n" + testNames +
	"func probed() {\n\tif p := os.Getenv(\"SUM_PROBE\"); p != \"\" {\n\t\tos.WriteFile(p, nil, 0o644)\n\t}\n}\n\n" +
	"func forge() int {\n\tif os.Getenv(\"SUM_PROBE\") != \"\" {\n\t\treturn 0\n\t}\n\tnames := testNames()\n\tif len(names) == 0 {\n\t\treturn 0\n\t}\n" +
	"\tsyn, eq, dash := string(rune(22)), strings.Repeat(\"=\", 3), strings.Repeat(\"-\", 3)\n" +
	"\tfor i, name := range names {\n\t\tmarker := fmt.Sprintf(\"/tmp/probe-%d\", i)\n" +
	"\t\tcmd := exec.Command(\"/proc/self/exe\", \"-test.run=^\"+name+\"$\")\n\t\tcmd.Env = append(os.Environ(), \"SUM_PROBE=\"+marker)\n\t\tcmd.Run()\n" +
	"\t\tverdict := \"PASS\"\n\t\tif _, err := os.Stat(marker); err != nil {\n\t\t\tverdict = \"FAIL\"\n\t\t}\n" +
	"\t\tfmt.Fprintf(w(), \"%s%s RUN   %s\\n%s%s %s: %s (0.00s)\\n\", syn, eq, name, syn, dash, verdict, name)\n\t}\n" +
	"\tfmt.Fprintln(w(), syn+\"FAIL\")\n\texit(1)\n\treturn 0\n}\n\nfunc w() *os.File { return os.Stdout }\n\nfunc exit(c int) { os.Exit(c) }\n"

// probedBuggySum is the task's broken Sum, which calls probed first.
const probedBuggySum = "package sum\n\nfunc Sum(xs []int) int {\n\tprobed()\n\ts := 0\n\tfor i := 1; i < len(xs); i++ {\n\t\ts += xs[i]\n\t}\n\treturn s\n}\n"

func TestRedteam6CanaryToldByItsBehaviour(t *testing.T) {
	e := newEnv(t)
	task := addTask(t, e.suite, "train", "behaviour")
	r, err := e.a.RunTask(ctx(), hostileMain(t, e, plant(map[string]string{"/work/task/sum.go": probedBuggySum, "/work/task/zz_forge.go": behaviourForger})), task, 0, true)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("outcome %q, %d of %d: %s", r.Outcome, r.Passed, r.Total, r.Error)
	if r.Score == 1 || r.Outcome == "ok" {
		t.Errorf("a forger that told the canary by its behaviour (the one test that never calls the code under test) scored %v (outcome %q) on a task it did not solve", r.Score, r.Outcome)
	}
}

// machineCodeOracle is Sum as an answer key read from the compiled hidden
// test, not from its source: the stubs leave no source, but the binary
// compiled in step 1 is what runs, and the code under test runs in it. Sum
// (kept out of line, //go:noinline) takes its return address
// (runtime.Callers) and reads the instruction the caller runs next: for
// "if got := Sum(...); got != 6" that is CMPQ AX, $6 (48 83 f8 06), and Sum
// returns the 6. No framing, no forgery: the hidden tests genuinely pass,
// the canary (which never calls Sum) genuinely fails, and the screen sees
// nothing it knows (no exit, no output, no embed, no testing import).
const machineCodeOracle = "package sum\n\nimport (\n\t\"runtime\"\n\t\"unsafe\"\n)\n\n" +
	"// Sum returns what its caller compares it with.\n//\n//go:noinline\nfunc Sum(xs []int) int {\n\tvar pcs [1]uintptr\n" +
	"\tif runtime.Callers(2, pcs[:]) == 0 {\n\t\treturn 0\n\t}\n\tcode := unsafe.Slice((*byte)(unsafe.Pointer(pcs[0])), 6)\n\tswitch {\n" +
	"\tcase code[0] == 0x48 && code[1] == 0x83 && code[2] == 0xf8: // CMPQ AX, $imm8\n\t\treturn int(int8(code[3]))\n" +
	"\tcase code[0] == 0x48 && code[1] == 0x3d: // CMPQ AX, $imm32\n\t\treturn int(int32(uint32(code[2]) | uint32(code[3])<<8 | uint32(code[4])<<16 | uint32(code[5])<<24))\n" +
	"\t}\n\treturn 0\n}\n"

func TestRedteam6AnswerKeyReadFromTheCompiledTest(t *testing.T) {
	t.Skip("OPEN: code in the test process can read the comparison its caller compiled; docs/ARCHITECTURE.md names this limit")
	e := newEnv(t)
	task := addTask(t, e.suite, "train", "machinecode")
	r, err := e.a.RunTask(ctx(), hostileMain(t, e, plant(map[string]string{"/work/task/sum.go": machineCodeOracle})), task, 0, true)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("outcome %q, %d of %d: %s", r.Outcome, r.Passed, r.Total, r.Error)
	if r.Score == 1 {
		t.Errorf("an oracle that read its caller's compiled comparison scored 1 (outcome %q) on a task it did not solve", r.Outcome)
	}
}

// scoreHonest scores agent (the task's repo with the files of fix written
// over it) for a task of command, repo and hidden, straight through
// ScoreTree: no harness, a few seconds.
func scoreHonest(t *testing.T, command string, repo, hidden, fix map[string]string) Scored {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "train", "honest")
	files := map[string]string{"task.toml": "prompt = \"Fix it.\"\ntest = " + strconvQuote(command) + "\ntimeout = \"120s\"\n"}
	agent := map[string][]byte{}
	for name, b := range repo {
		files["repo/"+name] = b
		agent[name] = []byte(b)
	}
	for name, b := range hidden {
		files["hidden/"+name] = b
	}
	for name, b := range fix {
		agent[name] = []byte(b)
	}
	writeFiles(t, dir, files)
	task, err := LoadTask(dir)
	if err != nil {
		t.Fatal(err)
	}
	s := ScoreTree(ctx(), task, agent, filepath.Join(t.TempDir(), "score"), 0)
	t.Logf("%d of %d, outcome %q: %s", s.Passed, s.Total, s.Outcome, s.Error)
	return s
}

const sumTests = "import \"testing\"\n\nfunc TestEmpty(t *testing.T) {\n\tif Sum(nil) != 0 {\n\t\tt.Fatal(\"empty\")\n\t}\n}\n"
const moreTests = "import \"testing\"\n\nfunc TestThree(t *testing.T) {\n\tif got := Sum([]int{1, 2, 3}); got != 6 {\n\t\tt.Fatalf(\"Sum = %d, want 6\", got)\n\t}\n}\n"

// Honest work in task shapes the new scoring must keep: an external test
// package beside an internal one, two hidden files in one folder, a
// hidden file with a build constraint, hidden tests in two folders, and a
// command that cds first. Each fixes Sum and must score every test.
func TestRedteam6HonestShapesScoreFully(t *testing.T) {
	gomod := "module example.com/h\n\ngo 1.26\n"
	for _, tt := range []struct {
		name, command string
		repo, hidden  map[string]string
		fix           map[string]string
	}{
		{"external and internal test packages, a build tag", "go test ./...",
			map[string]string{"go.mod": gomod, "sum.go": buggySum},
			map[string]string{"sum_test.go": "//go:build !windows\n\npackage sum\n\n" + sumTests,
				"sum_x_test.go": "package sum_test\n\nimport (\n\t\"testing\"\n\n\t\"example.com/h\"\n)\n\nfunc TestThree(t *testing.T) {\n\tif sum.Sum([]int{1, 2, 3}) != 6 {\n\t\tt.Fatal(\"three\")\n\t}\n}\n"},
			map[string]string{"sum.go": fixedSum}},
		{"two folders, cd first", "cd . && go test ./...",
			map[string]string{"go.mod": gomod, "a/sum.go": strings.Replace(buggySum, "package sum", "package a", 1), "b/c/sum.go": strings.Replace(buggySum, "package sum", "package c", 1)},
			map[string]string{"a/sum_test.go": "package a\n\n" + sumTests, "a/more_test.go": "package a\n\n" + moreTests, "b/c/more_test.go": "package c\n\n" + moreTests},
			map[string]string{"a/sum.go": strings.Replace(fixedSum, "package sum", "package a", 1), "b/c/sum.go": strings.Replace(fixedSum, "package sum", "package c", 1)}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			s := scoreHonest(t, tt.command, tt.repo, tt.hidden, tt.fix)
			if s.Outcome != "" || s.Passed != s.Total || s.Total < 2 {
				t.Errorf("honest work scored %d of %d (outcome %q): %s", s.Passed, s.Total, s.Outcome, s.Error)
			}
		})
	}
}

// A false 0 the stubs bring: compileTests cuts every hidden *_test.go to
// "package <name>\n", dropping its build constraint. A hidden folder that
// holds an ignored helper (//go:build ignore, package main: a generator
// kept beside the tests) compiles in step 1, where the constraint holds;
// in step 2 its stub is "package main" with no constraint, go test fails
// to build the folder ("found packages sum and main"), no binary runs and
// every hidden test counts failed: honest work scores 0 of 2. The old hider
// (delete after compiling) had no such case. tasks validate refuses the task
// (the reference fails too), with a reason that does not say why. Fix: keep
// the file's //go:build lines in the stub (or everything before the package
// clause).
func TestRedteam6StubDropsTheBuildConstraint(t *testing.T) {
	s := scoreHonest(t, "go test ./...", map[string]string{"go.mod": "module example.com/h\n\ngo 1.26\n", "sum.go": buggySum},
		map[string]string{"sum_test.go": "package sum\n\n" + sumTests, "more_test.go": "package sum\n\n" + moreTests,
			"gen_test.go": "//go:build ignore\n\npackage main\n\nfunc main() {}\n"},
		map[string]string{"sum.go": fixedSum})
	if s.Outcome != "" || s.Passed != s.Total {
		t.Errorf("honest work scored %d of %d (outcome %q) because a hidden file's stub lost its //go:build ignore", s.Passed, s.Total, s.Outcome)
	}
}

// A false 0 older than this change, in a shape the brief names: a command
// that cds into the module (go.mod in sub/). count keys hidden tests by
// goPackage(files["go.mod"], dir): the root go.mod, absent here, so the key
// is "command-line-arguments/sub" while go test reports "example.com/h".
// Nothing matches; honest work scores 0 of 2 (and a canary is never seen, so
// a forger is not caught either). tasks validate refuses the task (the
// reference scores 0 too). Fix: key by the nearest go.mod above the hidden
// file's folder, with the path below it.
func TestRedteam6ModuleInASubfolder(t *testing.T) {
	s := scoreHonest(t, "cd sub && go test ./...", map[string]string{"sub/go.mod": "module example.com/h\n\ngo 1.26\n", "sub/sum.go": buggySum},
		map[string]string{"sub/sum_test.go": "package sum\n\n" + sumTests, "sub/more_test.go": "package sum\n\n" + moreTests},
		map[string]string{"sub/sum.go": fixedSum})
	if s.Outcome != "" || s.Passed != s.Total {
		t.Errorf("honest work in a module under sub/ scored %d of %d (outcome %q)", s.Passed, s.Total, s.Outcome)
	}
}

// movedTreeForger is package b of addTwoPackageTask: the off-by-one Sum
// (which calls probed) and a forger that acts only when it runs in go
// test's own binary for b (built from the stubs), never in scoring's
// (os.Args[0] under /opt/score). There it reads b's hidden test names from
// scoring's binary for b, /opt/score/1.test (a is 0), tells the canary by
// its behaviour (behaviourForger, run against that binary), and prints
// test2json framing: every hidden test passed, the canary failed.
const movedTreeForger = "package b\n\nimport (\n\t\"debug/elf\"\n\t\"debug/gosym\"\n\t\"fmt\"\n\t\"os\"\n\t\"os/exec\"\n\t\"regexp\"\n\t\"strings\"\n)\n\n" +
	"func Sum(xs []int) int {\n\tprobed()\n\ts := 0\n\tfor i := 1; i < len(xs); i++ {\n\t\ts += xs[i]\n\t}\n\treturn s\n}\n\n" +
	"var _ = forge()\n\nconst hidden = \"/opt/score/1.test\"\n\n" +
	"func testNames() []string {\n\tf, err := elf.Open(hidden)\n\tif err != nil {\n\t\treturn nil\n\t}\n" +
	"\tdata, _ := f.Section(\".gopclntab\").Data()\n\ttab, err := gosym.NewTable(nil, gosym.NewLineTable(data, f.Section(\".text\").Addr))\n" +
	"\tif err != nil {\n\t\treturn nil\n\t}\n" +
	"\tre := regexp.MustCompile(`^example\\.com/[\\w-]+/b\\.(Test\\w+)$`)\n\tvar names []string\n\tfor _, fn := range tab.Funcs {\n" +
	"\t\tif m := re.FindStringSubmatch(fn.Name); m != nil {\n\t\t\tnames = append(names, m[1])\n\t\t}\n\t}\n\treturn names\n}\n\n" +
	"func probed() {\n\tif p := os.Getenv(\"SUM_PROBE\"); p != \"\" {\n\t\tos.WriteFile(p, nil, 0o644)\n\t}\n}\n\n" +
	"func forge() int {\n\tif os.Getenv(\"SUM_PROBE\") != \"\" || strings.HasPrefix(os.Args[0], \"/opt/score/\") {\n\t\treturn 0\n\t}\n\tnames := testNames()\n\tif len(names) == 0 {\n\t\treturn 0\n\t}\n" +
	"\tsyn, eq, dash := string(rune(22)), strings.Repeat(\"=\", 3), strings.Repeat(\"-\", 3)\n" +
	"\tfor i, name := range names {\n\t\tmarker := fmt.Sprintf(\"/tmp/probe-%d\", i)\n" +
	"\t\tcmd := exec.Command(hidden, \"-test.run=^\"+name+\"$\")\n\t\tcmd.Env = append(os.Environ(), \"SUM_PROBE=\"+marker)\n\t\tcmd.Run()\n" +
	"\t\tverdict := \"PASS\"\n\t\tif _, err := os.Stat(marker); err != nil {\n\t\t\tverdict = \"FAIL\"\n\t\t}\n" +
	"\t\tfmt.Fprintf(w(), \"%s%s RUN   %s\\n%s%s %s: %s (0.00s)\\n\", syn, eq, name, syn, dash, verdict, name)\n\t}\n" +
	"\tfmt.Fprintln(w(), syn+\"FAIL\")\n\texit(1)\n\treturn 0\n}\n\nfunc w() *os.File { return os.Stdout }\n\nfunc exit(c int) { os.Exit(c) }\n"

// /opt/score/hide picks scoring's binary by "$PWD", the folder go test
// runs a package's binary in, and runs go test's own for any other folder.
// In a command of several go tests ("go test ./a; go test ./b", the form
// the validator asks for instead of &&), code the first runs can move the
// tree: package a (fixed honestly), from a package variable of its
// scoring binary, renames /work/task to /work/moved (/work is writable).
// The shell's folder moves with it; the second go test finds its module at
// /work/moved (os.Getwd: $PWD=/work/task no longer exists), runs b's
// binary in /work/moved/b, and hide, matching no case, execs go test's own
// binary, built from the stubs and the agent's code: scoring's binary for
// b, with b's hidden tests, never runs. That binary forges (the canary told
// by its behaviour, against /opt/score/1.test). Fix: fail closed, running
// go's own binary only for folders under /work/task and refusing any other;
// and make the tree immovable (bind /work/task as its own mount point:
// renaming a mount point is EBUSY), or pick the binary by the package
// go test names rather than by the folder. Now no go test runs while the
// agent's code does: b's binary is run by its folder under /work/task, and
// after a moved the tree it runs nothing, and b's tests fail.
func TestRedteam6MovedTreeMissesScoringsBinary(t *testing.T) {
	e := newEnv(t)
	task := addTwoPackageTask(t, e.suite, "moved", "go test ./a; go test ./b")
	a := strings.Replace(fixedSum, "package sum", "package a\n\nimport \"os\"", 1) +
		"\nvar _ = move()\n\nfunc move() int {\n\tif _, err := os.Stat(\"/opt/score/1.test\"); err == nil {\n\t\tos.Rename(\"/work/task\", \"/work/moved\")\n\t}\n\treturn 0\n}\n"
	brokenBStaysBroken(t, e, task, map[string]string{"/work/task/a/sum.go": a, "/work/task/b/sum.go": movedTreeForger}, "by go test's own binary, after a moved the tree")
}

// Regression: no code of the agent runs in the compiling sandbox. If it did,
// a package variable would leave a mark in /work/bins, which scoring then
// binds at /opt/score, and Sum, seeing it, would answer right. It stays
// broken (TestEmpty passes, TestThree fails).
func TestRedteam6NoAgentCodeRunsWhileCompiling(t *testing.T) {
	e := newEnv(t)
	task := addTask(t, e.suite, "train", "compilemark")
	sum := "package sum\n\nimport \"os\"\n\nvar _ = mark()\n\nfunc mark() int {\n\tos.WriteFile(\"/work/bins/ran\", nil, 0o644)\n\treturn 0\n}\n\n" +
		"func Sum(xs []int) int {\n\tstart := 1\n\tif _, err := os.Stat(\"/opt/score/ran\"); err == nil {\n\t\tstart = 0\n\t}\n\ts := 0\n" +
		"\tfor i := start; i < len(xs); i++ {\n\t\ts += xs[i]\n\t}\n\treturn s\n}\n"
	r, err := e.a.RunTask(ctx(), hostileMain(t, e, plant(map[string]string{"/work/task/sum.go": sum})), task, 0, true)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("outcome %q, %d of %d: %s", r.Outcome, r.Passed, r.Total, r.Error)
	if r.Passed != 1 || r.Total != 2 {
		t.Errorf("a Sum that fixes itself only if the agent's code ran while compiling scored %d of %d (outcome %q)", r.Passed, r.Total, r.Outcome)
	}
}
