package anchor

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func goEvents(lines ...string) []byte { return []byte(strings.Join(lines, "\n") + "\n") }

func TestScoreFormats(t *testing.T) {
	goTask := Task{Test: "go test ./..."}
	tests := []struct {
		name         string
		task         Task
		out, report  string
		exit         int
		passed, want int
	}{
		{"go all pass", goTask, string(goEvents(
			`{"Action":"run","Package":"p","Test":"TestA"}`, `{"Action":"pass","Package":"p","Test":"TestA"}`,
			`{"Action":"pass","Package":"p","Test":"TestB"}`, `{"Action":"pass","Package":"p"}`)), "", 0, 2, 2},
		{"go one fails", goTask, string(goEvents(
			`{"Action":"pass","Package":"p","Test":"TestA"}`, `{"Action":"fail","Package":"p","Test":"TestB"}`, `{"Action":"fail","Package":"p"}`)), "", 1, 1, 2},
		{"go skip is not a pass", goTask, string(goEvents(
			`{"Action":"pass","Package":"p","Test":"TestA"}`, `{"Action":"skip","Package":"p","Test":"TestB"}`)), "", 0, 1, 2},
		{"go build failure", goTask, string(goEvents(
			`{"Action":"pass","Package":"p","Test":"TestA"}`, `{"Action":"fail","Package":"q"}`)), "", 1, 1, 2},
		{"go never ran", goTask, "no Go files", "", 1, 0, 1},
		{"go exit 0 but nothing ran", goTask, "", "", 0, 0, 1},
		{"go output lines that only look like events", goTask, string(goEvents(
			`{"Action":"output","Package":"p","Output":"{\"Action\":\"pass\",\"Test\":\"TestX\"}"}`, `{"Action":"fail","Package":"p","Test":"TestA"}`)), "", 1, 0, 1},
		{"exit code pass", Task{Test: "make check"}, "", "", 0, 1, 1},
		{"exit code fail", Task{Test: "make check"}, "", "", 2, 0, 1},
		{"junit", Task{Test: "pytest", JUnit: "r.xml"}, "", `<testsuites><testsuite><testcase name="a"/><testcase name="b"><failure/></testcase>` +
			`<testcase name="c"><skipped/></testcase><testcase name="d"/></testsuite></testsuites>`, 1, 2, 4},
		{"junit single suite", Task{Test: "pytest", JUnit: "r.xml"}, "", `<testsuite><testcase name="a"/><testcase name="b"><error/></testcase></testsuite>`, 1, 1, 2},
		{"junit missing", Task{Test: "pytest", JUnit: "r.xml"}, "", "", 0, 0, 1},
		{"junit all pass but command failed", Task{Test: "pytest", JUnit: "r.xml"}, "", `<testsuite><testcase name="a"/></testsuite>`, 3, 1, 2},
	}
	for _, tt := range tests {
		out := tt.out
		passed, total := Score(tt.task, []byte(out), tt.exit, []byte(tt.report))
		if passed != tt.passed || total != tt.want {
			t.Errorf("%s: got %d/%d, want %d/%d", tt.name, passed, total, tt.passed, tt.want)
		}
	}
}

func TestHiddenTestsMustRun(t *testing.T) {
	e := newEnv(t)
	dir := addTask(t, e.suite, "train", "hidden-run")
	task, err := LoadTask(dir)
	if err != nil {
		t.Fatal(err)
	}
	// A TestMain that exits 0 without running anything: nothing is reported.
	passed, total := Score(task, goEvents(`{"Action":"pass","Package":"p"}`), 0, nil)
	if passed != 0 || total != 2 {
		t.Errorf("unreported hidden tests: %d/%d, want 0/2", passed, total)
	}
}

// scoreTree runs the real scoring sandbox on an agent tree.
func scoreTree(t *testing.T, e *testEnv, task Task, tree map[string]string) Run {
	t.Helper()
	tmp := t.TempDir()
	work := filepath.Join(tmp, "work")
	copyTree(filepath.Join(task.Dir, "repo"), filepath.Join(work, "task"))
	writeFiles(t, filepath.Join(work, "task"), tree)
	var r Run
	e.a.score(ctx(), task, work, tmp, &r)
	return r
}

func TestScoringSandbox(t *testing.T) {
	e := newEnv(t)
	task, _ := LoadTask(addTask(t, e.suite, "train", "score-me"))
	if r := scoreTree(t, e, task, nil); r.Passed != 1 || r.Total != 2 {
		t.Errorf("untouched repo: %d/%d %s, want 1/2", r.Passed, r.Total, r.Error)
	}
	if r := scoreTree(t, e, task, map[string]string{"sum.go": fixedSum}); r.Passed != 2 || r.Total != 2 {
		t.Errorf("fixed repo: %d/%d %s, want 2/2", r.Passed, r.Total, r.Error)
	}
	// Editing the public test to skip the check is undone by hidden/.
	if r := scoreTree(t, e, task, map[string]string{"sum_more_test.go": "package sum\n"}); r.Passed != 1 {
		t.Errorf("overwritten hidden test: %d/%d", r.Passed, r.Total)
	}
	// A planted TestMain that exits 0 without running tests fails.
	planted := "package sum\n\nimport (\n\t\"os\"\n\t\"testing\"\n)\n\nfunc TestMain(m *testing.M) { os.Exit(0) }\n"
	if r := scoreTree(t, e, task, map[string]string{"zz_main_test.go": planted}); r.Passed != 0 {
		t.Errorf("planted TestMain: %d/%d, want 0 passed", r.Passed, r.Total)
	}
	// A build break is a failure, never a pass.
	if r := scoreTree(t, e, task, map[string]string{"sum.go": "package sum\nfunc Sum(\n"}); r.Passed != 0 || r.Total < 1 {
		t.Errorf("build failure: %d/%d", r.Passed, r.Total)
	}
}

func TestPlantedReportDoesNotCount(t *testing.T) {
	e := newEnv(t)
	dir := filepath.Join(e.suite, "train", "junit-task")
	writeFiles(t, dir, map[string]string{
		"task.toml": "prompt = \"make the check pass\"\ntest = \"sh check.sh\"\njunit = \"out/report.xml\"\n",
		"repo/check.sh": "mkdir -p out\nif [ -f fixed ]; then r='<testcase name=\"a\"/>'; else r='<testcase name=\"a\"><failure/></testcase>'; fi\n" +
			"echo \"<testsuite>$r<testcase name=\\\"b\\\"/></testsuite>\" > out/report.xml\n[ -f fixed ]\n",
	})
	task, err := LoadTask(dir)
	if err != nil {
		t.Fatal(err)
	}
	if r := scoreTree(t, e, task, nil); r.Passed != 1 || r.Total != 2 {
		t.Errorf("unfixed: %d/%d, want 1/2", r.Passed, r.Total)
	}
	if r := scoreTree(t, e, task, map[string]string{"fixed": ""}); r.Passed != 2 || r.Total != 2 {
		t.Errorf("fixed: %d/%d, want 2/2", r.Passed, r.Total)
	}
	// The agent plants a perfect report and breaks the script so it writes none.
	fake := `<testsuite><testcase name="a"/><testcase name="b"/><testcase name="c"/></testsuite>`
	if r := scoreTree(t, e, task, map[string]string{"out/report.xml": fake, "check.sh": "exit 0\n"}); r.Passed != 0 {
		t.Errorf("planted report counted: %d/%d", r.Passed, r.Total)
	}
}

func TestLoadTask(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "holdout", "t1")
	writeFiles(t, dir, map[string]string{"repo/x": "", "task.toml": "# a task\nprompt = \"\"\"\nLine one.\nLine \"two\".\n\"\"\"\ntest = 'go test ./...'\ntimeout = \"90s\"\n"})
	task, err := LoadTask(dir)
	if err != nil {
		t.Fatal(err)
	}
	if task.Prompt != "Line one.\nLine \"two\".\n" || task.Test != "go test ./..." || task.Timeout != 90*time.Second || task.Split != "holdout" || task.ID != "t1" {
		t.Errorf("task = %+v", task)
	}
	if task.ScoreCommand() != "go test -json ./..." {
		t.Errorf("score command = %q", task.ScoreCommand())
	}
	for _, bad := range []string{"prompt = \"x\"\n", "test = \"x\"\n", "prompt = \"\"\"\nnever closed\ntest = \"x\"\n", "prompt = \"x\"\ntest = \"y\"\ntimeout = \"soon\"\n"} {
		os.WriteFile(filepath.Join(dir, "task.toml"), []byte(bad), 0o644)
		if _, err := LoadTask(dir); err == nil {
			t.Errorf("accepted task.toml %q", bad)
		}
	}
}
