package anchor

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"
)

// judge names who scores a run: this anchor's build and the Go toolchain
// that compiles and runs the tests.
func judge() string {
	_, version := goEnv()
	return anchorBuild()[:16] + " " + version
}

// anchorBuild is the sha256 of this anchor's executable: a runner's workers
// refuse jobs of another build.
var anchorBuild = sync.OnceValue(func() string {
	exe, _ := os.Executable()
	self, _ := os.ReadFile(exe)
	sum := sha256.Sum256(self)
	return hex.EncodeToString(sum[:])
})

// errNoBuild marks a harness that does not compile: the harness's 0.
var errNoBuild = errors.New("harness does not build")

// build compiles a stored snapshot, once per hash, in a sandbox like any
// run's (offline, memory and time capped): a snapshot's source is the
// harness's, and a compiler fed a bomb must not take the host.
func (a *Anchor) build(ctx context.Context, hash string) (string, error) {
	a.buildMu.Lock()
	defer a.buildMu.Unlock()
	bin, err := filepath.Abs(a.path("builds", hash))
	if err != nil {
		return "", err
	}
	if _, err := os.Stat(bin); err == nil {
		return bin, nil // built before
	}
	files, err := a.readSnapshot(hash)
	if err != nil {
		return "", err
	}
	cache := cacheDir("build") // only the Go compiler writes here: source cannot run code at build time
	if err := os.MkdirAll(cache, 0o755); err != nil {
		return "", err
	}
	dir, err := a.scratch("build")
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(dir)
	if err := WriteTree(filepath.Join(dir, "src"), files); err != nil {
		return "", err
	}
	box := Box{Work: dir, Cache: cache, SharedCache: true, Dir: "/work/src", Timeout: 5 * time.Minute,
		Memory: a.Memory, Args: []string{"go", "build", "-o", "/work/harness", "."}}
	code, out, timedOut, err := box.Run(ctx)
	if err != nil {
		return "", err
	}
	if timedOut || code != 0 {
		return "", fmt.Errorf("%w (status %d, timed out %v): %s", errNoBuild, code, timedOut,
			strings.TrimSpace(string(out[max(0, len(out)-2000):])))
	}
	return bin, os.Rename(filepath.Join(dir, "harness"), bin)
}
