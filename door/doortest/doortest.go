// Package doortest holds what the front doors' tests share: a project with
// a real bug, a scripted model that fixes it, and a door on that model.
package doortest

import (
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"ratchet/door"
	"ratchet/harness/fakemodel"
	"ratchet/internal/testtree"
)

// The project is the shared Double fixture (internal/testtree).
const (
	buggy  = testtree.Buggy
	fixed  = testtree.Fixed
	testGo = testtree.TestTwo
)

// Project makes a small Go project whose Double is wrong.
func Project(t testing.TB) string {
	t.Helper()
	dir := t.TempDir()
	for name, body := range map[string]string{"go.mod": "module example.com/m\n\ngo 1.26\n", "m.go": buggy, "m_test.go": testGo} {
		os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644)
	}
	return dir
}

// Fixer is a scripted model that fixes Double and says so.
func Fixer(r fakemodel.Request) fakemodel.Step {
	msgs := r.Messages()
	if last := string(msgs[len(msgs)-1]); strings.Contains(last, "wrote ") && (strings.Contains(last, `"role":"tool"`) || strings.Contains(last, "tool_result")) {
		return fakemodel.Step{Text: "Fixed Double: it added one too many.", In: 80, Out: 10}
	}
	args, _ := json.Marshal(map[string]string{"path": "m.go", "content": fixed})
	return fakemodel.Step{Text: "Fixing.", Calls: []fakemodel.Call{{ID: "c1", Name: "write_file", Args: string(args)}}, In: 60, Out: 30}
}

// Open opens a door on a scripted model, with the repository's harness;
// each of with may change the configuration first.
func Open(t testing.TB, step func(fakemodel.Request) fakemodel.Step, sandbox bool, with ...func(*door.Config)) (*door.Door, *fakemodel.Server) {
	t.Helper()
	steps := make([]fakemodel.Step, 500)
	for i := range steps {
		steps[i] = fakemodel.Step{Func: step}
	}
	srv, err := fakemodel.Start(steps...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Close)
	env := append(os.Environ(), "MODEL_API=openai", "MODEL_URL="+srv.URL, "MODEL_NAME=scripted", "MODEL_OPTIONS=", "MODEL_API_KEY="+Secret)
	cfg := door.Config{Harness: Harness(), Home: t.TempDir(), Env: env, Sandbox: sandbox, NumCtx: 8192}
	for _, f := range with {
		f(&cfg)
	}
	d, err := door.Open(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	return d, srv
}

// Fixed is the content Fixer writes.
const Fixed = fixed

// Harness is the repository's harness folder.
func Harness() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..", "harness")
}

// Ratchet returns the ratchet command, built once per test binary (see
// testtree.Command); a package that uses it calls Main from its TestMain.
func Ratchet(t testing.TB) string {
	t.Helper()
	return testtree.Command(t, "ratchet")
}

// Main runs a package's tests (call it from TestMain) and removes what
// Ratchet built.
func Main(m *testing.M) { testtree.Main(m) }

// ModelEnv is the environment of a ratchet process using the scripted model
// at url, with a credential that must never reach the agent.
func ModelEnv(url string) []string {
	return append(os.Environ(), "MODEL_API=openai", "MODEL_URL="+url, "MODEL_NAME=scripted", "MODEL_OPTIONS=", "MODEL_API_KEY="+Secret,
		"GITHUB_TOKEN="+Secret+"-gh", "RATCHET_TOKEN=")
}

// Secret is the credential the scripted doors are given.
const Secret = "sk-door-SECRET"
