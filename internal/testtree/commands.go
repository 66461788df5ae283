package testtree

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sync"
	"testing"
)

// commands holds the project's commands built for this test binary: each
// links for seconds, and tests only run them.
var commands struct {
	mu    sync.Mutex
	dir   string           // removed by Main
	built map[string]error // by command name
}

// Command returns the path of the project's command name (cmd/<name>, e.g.
// "ratchet" or "anchor"), built the first time a test of this binary asks
// for it. Call Main from the package's TestMain so the build is removed.
func Command(tb testing.TB, name string) string {
	tb.Helper()
	commands.mu.Lock()
	defer commands.mu.Unlock()
	if commands.dir == "" {
		dir, err := os.MkdirTemp("", "ratchet-commands-")
		if err != nil {
			tb.Fatal(err)
		}
		commands.dir, commands.built = dir, map[string]error{}
	}
	err, done := commands.built[name]
	if !done {
		_, file, _, _ := runtime.Caller(0)
		cmd := exec.Command("go", "build", "-o", filepath.Join(commands.dir, name), "./cmd/"+name)
		cmd.Dir = filepath.Join(filepath.Dir(file), "..", "..")
		if out, berr := cmd.CombinedOutput(); berr != nil {
			err = fmt.Errorf("build %s: %v\n%s", name, berr, out)
		}
		commands.built[name] = err
	}
	if err != nil {
		tb.Fatal(err)
	}
	return filepath.Join(commands.dir, name)
}

// Main runs a package's tests (call it from TestMain) and removes the
// commands Command built.
func Main(m *testing.M) {
	code := m.Run()
	if commands.dir != "" {
		os.RemoveAll(commands.dir)
	}
	os.Exit(code)
}
