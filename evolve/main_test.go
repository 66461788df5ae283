package evolve

import (
	"fmt"
	"os"
	"os/exec"
	"sync"
	"testing"
)

// built holds the anchor and ratchet binaries, built once for the package:
// the tests only run them, and each build links for seconds.
var built struct {
	once sync.Once
	dir  string // removed by TestMain
	err  error
}

func TestMain(m *testing.M) {
	code := m.Run()
	if built.dir != "" {
		os.RemoveAll(built.dir)
	}
	os.Exit(code)
}

// binDir returns the folder holding the built anchor and ratchet.
func binDir(t *testing.T) string {
	t.Helper()
	built.once.Do(func() {
		if built.dir, built.err = os.MkdirTemp("", "evolve-bin-"); built.err != nil {
			return
		}
		cmd := exec.Command("go", "build", "-o", built.dir+"/", "./cmd/anchor", "./cmd/ratchet")
		cmd.Dir = repoRoot()
		if out, err := cmd.CombinedOutput(); err != nil {
			built.err = fmt.Errorf("build: %v\n%s", err, out)
		}
	})
	if built.err != nil {
		t.Fatal(built.err)
	}
	return built.dir
}
