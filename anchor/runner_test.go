package anchor

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"ratchet/harness/fakemodel"
)

// The run cache's key was (harness, task, model, repeat): no budget, no
// memory. The freeze is what keeps a ledger's runs under one budget, and
// it applies only once init has recorded one. A fleet worker runs every
// job as `anchor run --budget N --memory M` in its own ANCHOR_HOME, which
// nothing ever initializes (fleet/worker.go), so the worker's anchor
// answered a job at budget 5,000 with the run it made for another
// ledger's job at 100,000, from its cache, and the second ledger recorded
// it as its own. Here the worker's two invocations are played through the
// command line on one home, with the baseline harness.
func TestRunCacheIsKeyedByTheBudget(t *testing.T) {
	var mu sync.Mutex
	var offered []int
	e := newEnv(t, repeat(fakemodel.Step{Func: func(r fakemodel.Request) fakemodel.Step {
		var body struct {
			MaxTokens int `json:"max_tokens"`
		}
		json.Unmarshal(r.Body, &body)
		mu.Lock()
		offered = append(offered, body.MaxTokens)
		mu.Unlock()
		return fakemodel.Step{Text: "I give up.", In: 50, Out: 5}
	}}, 100)...)
	task := addTask(t, e.suite, "train", "worker")
	dir := copyHarness(t)
	workerHome := filepath.Join(t.TempDir(), "worker-anchor")
	anchorRun := func(budget string) Run {
		self, _ := os.Executable()
		cmd := exec.Command(self, "run", "--harness", dir, "--task", task, "--json", "--budget", budget, "--memory", "2147483648")
		cmd.Env = append(os.Environ(), "ANCHOR_TEST_MAIN=1", "ANCHOR_HOME="+workerHome, "ANCHOR_RUNNER=", "MODEL_API=openai", "MODEL_URL="+e.srv.URL,
			"MODEL_NAME=scripted", "MODEL_OPTIONS=", "MODEL_API_KEY="+e.a.key, "ANCHOR_BUDGET=", "ANCHOR_MEMORY=")
		var stdout, stderr strings.Builder
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		if err := cmd.Run(); err != nil {
			t.Fatalf("anchor run --budget %s: %v: %s", budget, err, stderr.String())
		}
		var r Run
		if err := json.Unmarshal([]byte(stdout.String()), &r); err != nil {
			t.Fatalf("anchor run printed %q: %v", stdout.String(), err)
		}
		return r
	}
	first := anchorRun("100000")
	second := anchorRun("5000")
	mu.Lock()
	t.Logf("job at budget 100000: run %s cached=%v; job at budget 5000: run %s cached=%v; max_tokens the upstream was offered: %v",
		first.ID, first.Cached, second.ID, second.Cached, offered)
	mu.Unlock()
	if second.Cached || second.ID == first.ID {
		t.Errorf("a run at budget 5000 was answered with run %s, measured at budget 100000", first.ID)
	}
}
