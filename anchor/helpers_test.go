package anchor

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"ratchet/harness/fakemodel"
)

// harnessDir is the real baseline harness of the repository.
func harnessDir(t testing.TB) string {
	t.Helper()
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "harness")
}

// copyHarness returns a private copy of the baseline harness.
func copyHarness(t testing.TB) string {
	t.Helper()
	dst := filepath.Join(t.TempDir(), "harness")
	if err := copyTree(harnessDir(t), dst); err != nil {
		t.Fatal(err)
	}
	return dst
}

func writeFiles(t testing.TB, root string, files map[string]string) {
	t.Helper()
	for name, body := range files {
		p := filepath.Join(root, name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// addTask writes a small Go task: sum.go has an off-by-one that the hidden
// test catches; fix is the reference content.
func addTask(t testing.TB, suite, split, id string) string {
	t.Helper()
	dir := filepath.Join(suite, split, id)
	writeFiles(t, dir, map[string]string{
		"task.toml":               "prompt = \"\"\"\nSum is wrong for " + id + ". Fix it.\n\"\"\"\ntest = \"go test ./...\"\ntimeout = \"120s\"\n",
		"repo/go.mod":             "module example.com/" + id + "\n\ngo 1.26\n",
		"repo/sum.go":             buggySum,
		"repo/sum_test.go":        "package sum\n\nimport \"testing\"\n\nfunc TestEmpty(t *testing.T) {\n\tif Sum(nil) != 0 {\n\t\tt.Fatal(\"empty\")\n\t}\n}\n",
		"hidden/sum_test.go":      "package sum\n\nimport \"testing\"\n\nfunc TestEmpty(t *testing.T) {\n\tif Sum(nil) != 0 {\n\t\tt.Fatal(\"empty\")\n\t}\n}\n",
		"hidden/sum_more_test.go": "package sum\n\nimport \"testing\"\n\nfunc TestThree(t *testing.T) {\n\tif got := Sum([]int{1, 2, 3}); got != 6 {\n\t\tt.Fatalf(\"Sum = %d, want 6\", got)\n\t}\n}\n",
		"reference/sum.go":        fixedSum,
	})
	return dir
}

const buggySum = "package sum\n\nfunc Sum(xs []int) int {\n\ts := 0\n\tfor i := 1; i < len(xs); i++ {\n\t\ts += xs[i]\n\t}\n\treturn s\n}\n"
const fixedSum = "package sum\n\nfunc Sum(xs []int) int {\n\ts := 0\n\tfor i := 0; i < len(xs); i++ {\n\t\ts += xs[i]\n\t}\n\treturn s\n}\n"

// fixer is a scripted model that fixes sum.go when the system prompt
// contains want (or always when want is empty), and gives up otherwise. It
// stands in for "a harness change that helps".
func fixer(want string) fakemodel.Step {
	return fakemodel.Step{Func: func(r fakemodel.Request) fakemodel.Step {
		body := string(r.Body)
		if want != "" && !strings.Contains(body, want) {
			return fakemodel.Step{Text: "I give up.", In: 50, Out: 5}
		}
		if strings.Contains(body, "wrote ") {
			return fakemodel.Step{Text: "Fixed.", In: 80, Out: 5}
		}
		args, _ := json.Marshal(map[string]string{"path": "sum.go", "content": fixedSum})
		return fakemodel.Step{Calls: []fakemodel.Call{{Name: "write_file", Args: string(args)}}, In: 60, Out: 40}
	}}
}

// repeat makes a script of n copies of a step.
func repeat(s fakemodel.Step, n int) []fakemodel.Step {
	out := make([]fakemodel.Step, n)
	for i := range out {
		out[i] = s
	}
	return out
}

type testEnv struct {
	a     *Anchor
	suite string
	srv   *fakemodel.Server
	out   *bytes.Buffer
}

// newEnv opens an anchor with a fresh home and suite, talking to a scripted
// model server over loopback.
func newEnv(t testing.TB, steps ...fakemodel.Step) *testEnv {
	t.Helper()
	srv, err := fakemodel.Start(steps...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Close)
	home := t.TempDir()
	var out bytes.Buffer
	a := &Anchor{Home: home, Tasks: filepath.Join(t.TempDir(), "suite"), Jobs: 2, Budget: 100000, Memory: DefaultMemory, Repeats: 1, Alpha: 0.05,
		API: "openai", URL: srv.URL, ModelName: "scripted", key: "sk-test-SECRET-123", Out: &out}
	if err := a.open(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { a.db.Close() })
	return &testEnv{a: a, suite: a.Tasks, srv: srv, out: &out}
}

func ctx() context.Context { return context.Background() }

// slow skips t under go test -short: it starts bubblewrap sandboxes, builds
// a harness or runs the anchor (Init, Apply, RunTask, Evaluate, ScoreTree).
// -short runs the rest: tables, parsers, the gate, the screen, the wire
// decoder, the proxy on a unix socket, in seconds.
//
// A slow test that shares nothing with the others (its own home, suite,
// model server and folders) calls t.Parallel after slow: the full run takes
// two at a time. One that changes what the process shares (os.Stderr, the
// environment, a package variable such as runDisk or maxTree), measures it
// (the heap, this process's cgroups), or holds a sandbox to a time limit
// (TestSandboxCannotSeeWhatIsHidden's find /, TestSandboxTimeoutKillsTheWholeTree)
// does not: go test runs it alone, before the parallel ones.
func slow(t testing.TB) {
	t.Helper()
	if testing.Short() {
		t.Skip("slow: starts sandboxes through the real anchor (run without -short)")
	}
}

// TestMain warms the machine's build caches once (the warm cache of the
// sandboxes and the sandboxed build of the baseline harness) before any
// test; under -short, whose tests start no sandbox, it does not.
func TestMain(m *testing.M) {
	flag.Parse() // testing.Short reads the flags
	if testing.Short() {
		os.Exit(m.Run())
	}
	if _, err := WarmCache(); err != nil {
		panic(err)
	}
	dir, err := os.MkdirTemp("", "anchor-test-")
	if err != nil {
		panic(err)
	}
	a := &Anchor{Home: dir}
	os.MkdirAll(a.path("snapshots"), 0o755)
	os.MkdirAll(a.path("builds"), 0o755)
	os.MkdirAll(a.path("tmp"), 0o755)
	_, file, _, _ := runtime.Caller(0)
	hash, err := a.Snapshot(filepath.Join(filepath.Dir(file), "..", "harness"))
	if err == nil {
		_, err = a.build(context.Background(), hash)
	}
	if err != nil {
		panic(err)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// extract writes a stored snapshot into dst.
func (a *Anchor) extract(hash, dst string) error {
	files, err := a.readSnapshot(hash)
	if err != nil {
		return err
	}
	return WriteTree(dst, files)
}

// strconvQuote quotes s as a TOML basic string.
func strconvQuote(s string) string { b, _ := json.Marshal(s); return string(b) }

// run runs the task at dir with harness hash, through the run cache unless forced.
func (e *testEnv) run(t *testing.T, hash, dir string, repeat int, force bool) Run {
	t.Helper()
	r, err := e.a.RunTask(ctx(), hash, dir, repeat, force)
	if err != nil {
		t.Fatal(err)
	}
	return r
}
