package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
)

// built holds the ratchet and anchor binaries, built once for the package:
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

// builtBinaries returns ratchet and anchor as a user would have them.
func builtBinaries(t *testing.T) (ratchet, anchorBin string) {
	t.Helper()
	if testing.Short() {
		t.Skip("builds the ratchet and anchor binaries: slow; run without -short")
	}
	built.once.Do(func() {
		if built.dir, built.err = os.MkdirTemp("", "ratchet-cmd-bin-"); built.err != nil {
			return
		}
		cmd := exec.Command("go", "build", "-o", built.dir+"/", "ratchet/cmd/ratchet", "ratchet/cmd/anchor")
		if out, err := cmd.CombinedOutput(); err != nil {
			built.err = fmt.Errorf("build: %v\n%s", err, out)
		}
	})
	if built.err != nil {
		t.Fatal(built.err)
	}
	return filepath.Join(built.dir, "ratchet"), filepath.Join(built.dir, "anchor")
}
