package fleet

import (
	"database/sql"
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	_ "modernc.org/sqlite"
)

// TestEvalThroughFleet initializes a ledger twice, two repeats of each
// task: on this machine, and with ANCHOR_RUNNER set to ratchet fleet submit
// and two workers. The evals (means), the run rows (but for ids, times and
// paths) and the traces (but for timestamps) must be the same.
func TestEvalThroughFleet(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("runs nats-server, workers, anchors and sandboxes")
	}
	url := startNATS(t)
	m := startModel(t, 0)
	env := modelEnv(m, "scripted")
	tasks := suite(t, map[string][]string{"train": {"fix-a", "stuck-b", "fix-c", "stuck-d"}, "holdout": {"fix-h", "stuck-h"}})
	seed := warmHome(t)
	openFleet(t, url)
	_, log1 := startWorker(t, url, "w1", env, seed)
	_, log2 := startWorker(t, url, "w2", env, seed)

	var home string
	initLedger := func(extra ...string) (evals, runs []map[string]any) {
		t.Helper()
		var harness string
		home, harness = t.TempDir(), filepath.Join(t.TempDir(), "harness")
		if out, err := exec.Command("cp", "-r", filepath.Join(repoRoot(), "harness"), harness).CombinedOutput(); err != nil {
			t.Fatalf("copy the harness: %v: %s", err, out)
		}
		cmd := exec.Command(filepath.Join(bin, "anchor"), "init", "--force", "--home", home, "--tasks", tasks, "--harness", harness, "--repeats", "2")
		cmd.Env = append(append(env[:len(env):len(env)], "ANCHOR_JOBS=4"), extra...)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("anchor init %v: %v\n%s", extra, err, out)
		}
		return ledgerQuery(t, home, `SELECT split, score, n_tasks FROM evals ORDER BY split`), ledgerQuery(t, home, `SELECT * FROM runs ORDER BY split, task_id, repeat`)
	}
	localEvals, local := initLedger()
	runner := fmt.Sprintf("ANCHOR_RUNNER=%s fleet submit --nats %s --trace-dir %s", filepath.Join(bin, "ratchet"), url, t.TempDir())
	fleetEvals, remote := initLedger(runner)
	// Every run came back with its scoring's report, so ratchet verify
	// re-scores and re-decides the ledger as one made on this machine.
	verify := exec.Command(filepath.Join(bin, "ratchet"), "verify", "--home", home, "--tasks", tasks)
	verify.Env = env
	if out, err := verify.CombinedOutput(); err != nil {
		t.Errorf("ratchet verify of a ledger made through the fleet: %v\n%s", err, out)
	}

	// A worker logs "done" after its ack, which follows the result that
	// ended the eval: the last lines may still be on their way.
	done := func() int { return strings.Count(log1.String()+log2.String(), "done ") }
	for end := time.Now().Add(2 * time.Minute); done() < 12 && time.Now().Before(end); {
		time.Sleep(50 * time.Millisecond)
	}
	if n := done(); n != 12 {
		t.Errorf("the workers ran %d jobs; want 12", n)
	}
	if g, w := mustJSON(fleetEvals), mustJSON(localEvals); g != w || !strings.Contains(w, `"score":0.5`) {
		t.Errorf("evals through the fleet %s, locally %s; want equal, 0.5", g, w)
	}
	if len(local) != 12 || len(remote) != len(local) {
		t.Fatalf("%d runs through the fleet, %d locally; want 12", len(remote), len(local))
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

// ledgerQuery reads rows of the ledger in an anchor home.
func ledgerQuery(t *testing.T, home, query string) []map[string]any {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+filepath.Join(home, "ledger.db")+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	rows, err := db.Query(query)
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
