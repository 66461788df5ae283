package anchor

import (
	"fmt"
	"os"
	"os/exec"
	"syscall"
	"testing"
	"time"
)

// The anchor compiled every candidate with go build on the host: no
// sandbox, no memory cap, no time limit, and a compiler bomb in an
// editable file (build-compiler-bomb.txtar) took over a gigabyte. The
// build is held to what a run may use. The apply runs in a child process,
// whose rusage covers the compiler; a fresh constant defeats the build
// cache.
func TestCandidateBuildIsBounded(t *testing.T) {
	slow(t)
	t.Parallel()
	const memory = 512 << 20
	if os.Getenv("BUILD_BOMB_CHILD") == "" {
		child := exec.Command(os.Args[0], "-test.run=^TestCandidateBuildIsBounded$", "-test.count=1", "-test.v")
		child.Env = append(os.Environ(), "BUILD_BOMB_CHILD=1")
		out, err := child.CombinedOutput()
		if err != nil {
			t.Fatalf("%v\n%s", err, out)
		}
		maxrss := child.ProcessState.SysUsage().(*syscall.Rusage).Maxrss << 10
		t.Logf("the apply's largest process: %d MiB", maxrss>>20)
		if maxrss > memory+64<<20 {
			t.Errorf("building the candidate took %d MiB on the host, more than a sandbox's %d MiB", maxrss>>20, memory>>20)
		}
		return
	}
	e, dir := suiteEnv(t)
	e.a.Memory = memory
	component, bomb := attackFor(t, "build-compiler-bomb").edit()
	bomb = fillIn(bomb, map[string]string{"nonce": fmt.Sprintf("%016x", time.Now().UnixNano())})
	cand := e.candidate(t, component, makeDiff(t, dir, map[string]string{component: bomb}))
	start := time.Now()
	err := e.a.Apply(ctx(), cand)
	g := e.last(t)
	t.Logf("%s in %s: %s (%v)", g.Decision, time.Since(start).Round(time.Second), g.Reason, err)
}
