package fleet

import (
	"database/sql"
	"encoding/json"
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	_ "modernc.org/sqlite"
)

// TestEvalThroughFleet evaluates a split twice: on this machine, and with
// ANCHOR_RUNNER set to ratchet fleet submit and two workers. The means, the
// ledgers' run rows (but for ids, times and paths) and the traces (but for
// timestamps) must be the same.
func TestEvalThroughFleet(t *testing.T) {
	if testing.Short() {
		t.Skip("runs nats-server, workers, anchors and sandboxes")
	}
	url := startNATS(t)
	m := startModel(t, 0)
	env := modelEnv(m, "scripted")
	tasks := suite(t, map[string][]string{"train": {"fix-a", "stuck-b", "fix-c", "stuck-d"}})
	seed := warmHome(t)
	openFleet(t, url)
	_, log1 := startWorker(t, url, "w1", env, seed)
	_, log2 := startWorker(t, url, "w2", env, seed)

	eval := func(home string, extra ...string) (float64, []map[string]any) {
		t.Helper()
		cmd := exec.Command(filepath.Join(bin, "anchor"), "eval", "--home", home, "--tasks", tasks, "--harness", filepath.Join(repoRoot(), "harness"), "--split", "train", "--json")
		cmd.Env = append(append(env[:len(env):len(env)], "ANCHOR_JOBS=4"), extra...)
		var stderr strings.Builder
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("anchor eval %v: %v\n%s", extra, err, stderr.String())
		}
		var e struct{ Mean float64 }
		if err := json.Unmarshal(out, &e); err != nil {
			t.Fatalf("anchor eval printed %q: %v", out, err)
		}
		return e.Mean, ledgerRuns(t, home)
	}
	localMean, local := eval(t.TempDir())
	runner := fmt.Sprintf("ANCHOR_RUNNER=%s fleet submit --nats %s --trace-dir %s", filepath.Join(bin, "ratchet"), url, t.TempDir())
	fleetMean, remote := eval(t.TempDir(), runner)

	if n := strings.Count(log1.String()+log2.String(), "done train/"); n != 4 {
		t.Errorf("the workers ran %d jobs; want 4", n)
	}
	if localMean != fleetMean || localMean != 0.5 {
		t.Errorf("mean %v through the fleet, %v locally; want 0.5 both", fleetMean, localMean)
	}
	if len(local) != 4 || len(remote) != len(local) {
		t.Fatalf("%d runs through the fleet, %d locally; want 4", len(remote), len(local))
	}
	for i := range local {
		lt, rt := local[i]["trace_path"].(string), remote[i]["trace_path"].(string)
		if lt == "" || rt == "" {
			t.Errorf("%v: trace paths %q (fleet) %q (local)", local[i]["task_id"], rt, lt)
			continue
		}
		if g, w := mustJSON(traceEvents(t, rt)), mustJSON(traceEvents(t, lt)); g != w {
			t.Errorf("%v: trace differs:\n%s\n%s", local[i]["task_id"], g, w)
		}
		for _, k := range []string{"id", "wall_ms", "created_at", "trace_path"} {
			delete(local[i], k)
			delete(remote[i], k)
		}
		if g, w := mustJSON(remote[i]), mustJSON(local[i]); g != w {
			t.Errorf("run row through the fleet:\n%s\nlocally:\n%s", g, w)
		}
	}
}

// ledgerRuns reads every runs row of an anchor home, by task.
func ledgerRuns(t *testing.T, home string) []map[string]any {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+filepath.Join(home, "ledger.db")+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	rows, err := db.Query(`SELECT * FROM runs ORDER BY task_id`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	cols, _ := rows.Columns()
	var out []map[string]any
	for rows.Next() {
		vals := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			t.Fatal(err)
		}
		row := map[string]any{}
		for i, c := range cols {
			row[c] = vals[i]
		}
		out = append(out, row)
	}
	return out
}
