package anchor

import (
	"encoding/json"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"ratchet/harness/fakemodel"
)

// The frozen settings are checked for every command but init (frozen,
// anchor.go: `cmd == "init"` returns early), and Init writes them with
// INSERT OR REPLACE (apply.go). Init refuses only a ledger that has a
// head, but it records the settings before it evaluates: an init that
// fails part way (a model server down on one holdout task, as here; "fix it
// and run again", the anchor says) leaves the frozen settings and the runs
// it measured, and no head. The next init then takes any --budget,
// --memory, --repeats or --alpha, overwrites the frozen ones, and builds
// generation 0 from the earlier runs out of the cache (the cache key has
// no budget or memory): the baseline's train side was measured with
// 100,000 tokens a run, its holdout and every later candidate with 5,000,
// and the ledger says 5,000 throughout. The fake upstream records the
// max_tokens each task was offered, which the proxy sets from the budget.
func TestFailedInitKeepsTheSettingsFrozen(t *testing.T) {
	slow(t)
	t.Parallel()
	var down atomic.Bool
	var mu sync.Mutex
	offered := map[string][]int{} // task id -> max_tokens of its requests
	e := newEnv(t, repeat(fakemodel.Step{Func: func(r fakemodel.Request) fakemodel.Step {
		var body struct {
			MaxTokens int `json:"max_tokens"`
		}
		json.Unmarshal(r.Body, &body)
		id := regexp.MustCompile(`Sum is wrong for ([\w-]+)`).FindSubmatch(r.Body)
		if id != nil {
			mu.Lock()
			offered[string(id[1])] = append(offered[string(id[1])], body.MaxTokens)
			mu.Unlock()
		}
		// Down from the holdout task on: it fails the anchor's probe too.
		if down.Load() && (strings.Contains(string(r.Body), "h-down") || strings.Contains(string(r.Body), "Say OK.")) {
			return fakemodel.Step{Status: 503, Body: `{"error":"loading model"}`}
		}
		return fakemodel.Step{Text: "I give up.", In: 50, Out: 5}
	}}, 1<<12)...)
	addTask(t, e.suite, "train", "t-a")
	addTask(t, e.suite, "train", "t-b")
	addTask(t, e.suite, "holdout", "h-down")
	dir := copyHarness(t)
	anchorCLI := func(args ...string) (string, error) {
		self, _ := os.Executable()
		cmd := exec.Command(self, append(args, "--home", e.a.Home, "--tasks", e.suite, "--harness", dir)...)
		cmd.Env = append(os.Environ(), "ANCHOR_TEST_MAIN=1", "MODEL_API=openai", "MODEL_URL="+e.srv.URL, "MODEL_NAME=scripted",
			"MODEL_OPTIONS=", "MODEL_API_KEY="+e.a.key, "ANCHOR_BUDGET=", "ANCHOR_MEMORY=", "ANCHOR_REPEATS=", "ANCHOR_ALPHA=")
		out, err := cmd.CombinedOutput()
		return string(out), err
	}
	down.Store(true)
	out, err := anchorCLI("init")
	if err == nil {
		t.Fatalf("the first init should fail on the holdout task: %s", out)
	}
	frozenBudget, _ := e.a.meta("budget")
	t.Logf("first init (budget %s) failed: %s", frozenBudget, lastLine(out))
	down.Store(false)
	out, err = anchorCLI("init", "--budget", "5000")
	budget, _ := e.a.meta("budget")
	mu.Lock()
	t.Logf("second init --budget 5000: err %v, %s; the ledger's budget is now %s; max_tokens offered per task: %v", err, lastLine(out), budget, offered)
	mu.Unlock()
	if err == nil {
		t.Errorf("init overwrote the ledger's frozen budget %s with 5000, and generation 0 reuses runs measured under %s", frozenBudget, frozenBudget)
	}
}

func lastLine(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return lines[len(lines)-1]
}
