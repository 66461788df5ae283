package fleet

import (
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// BenchmarkFleetEval evaluates 40 tasks through the fleet with a scripted
// model that takes 2 s a call (60 calls in all: 20 tasks are fixed in two
// calls, 20 given up in one), on one worker and on two, each running one
// job at a time. Run it with -benchtime 1x; it reports wall seconds.
func BenchmarkFleetEval(b *testing.B) {
	ids := make([]string, 40)
	for i := range ids {
		ids[i] = fmt.Sprintf("fix-%02d", i)
		if i%2 == 1 {
			ids[i] = fmt.Sprintf("stuck-%02d", i)
		}
	}
	tasks := suite(b, map[string][]string{"train": ids})
	seed := warmHome(b)
	for _, workers := range []int{1, 2} {
		b.Run(fmt.Sprintf("workers=%d", workers), func(b *testing.B) {
			for range b.N {
				url := startNATS(b)
				m := startModel(b, 2*time.Second)
				env := modelEnv(m, "scripted")
				openFleet(b, url)
				for w := range workers {
					startWorker(b, url, fmt.Sprintf("w%d", w+1), env, seed)
				}
				// anchor eval needs a ledger (it creates none); snapshot makes one.
				home := b.TempDir()
				if out, err := exec.Command(filepath.Join(bin, "anchor"), "snapshot", "--home", home, filepath.Join(repoRoot(), "harness")).CombinedOutput(); err != nil {
					b.Fatalf("snapshot: %v\n%s", err, out)
				}
				cmd := exec.Command(filepath.Join(bin, "anchor"), "eval", "--home", home, "--tasks", tasks,
					"--harness", filepath.Join(repoRoot(), "harness"), "--split", "train")
				cmd.Env = append(env, "ANCHOR_JOBS=40",
					fmt.Sprintf("ANCHOR_RUNNER=%s fleet submit --nats %s --trace-dir %s", filepath.Join(bin, "ratchet"), url, b.TempDir()))
				start := time.Now()
				out, err := cmd.CombinedOutput()
				wall := time.Since(start)
				if err != nil || !strings.Contains(string(out), "train mean 0.500 over 40 tasks") {
					b.Fatalf("eval: %v\n%s", err, out)
				}
				b.ReportMetric(wall.Seconds(), "wall-s")
			}
		})
	}
}
