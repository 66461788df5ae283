package mcpdoor

import (
	"context"
	"database/sql"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"ratchet/door"
	"ratchet/door/doortest"
	"ratchet/harness/fakemodel"
)

// ledger makes a small anchor ledger with one generation and two runs.
func ledger(t *testing.T) string {
	path := filepath.Join(t.TempDir(), "ledger.db")
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, q := range []string{
		`CREATE TABLE runs(id TEXT, harness_hash TEXT, task_hash TEXT, task_id TEXT, split TEXT, model TEXT, score REAL, passed INTEGER, total INTEGER,
		 tokens_in INTEGER, tokens_out INTEGER, wall_ms INTEGER, exit_code INTEGER, trace_path TEXT, error TEXT, created_at TEXT)`,
		`CREATE TABLE generations(gen INTEGER PRIMARY KEY, parent_gen INTEGER, harness_hash TEXT, diff_hash TEXT, component TEXT, hypothesis TEXT,
		 trace_ids TEXT, decision TEXT, reason TEXT, train_pre REAL, train_post REAL, holdout_pre REAL, holdout_post REAL, tokens INTEGER, created_at TEXT)`,
		`CREATE TABLE head(id INTEGER PRIMARY KEY, gen INTEGER)`,
		`INSERT INTO generations(gen, harness_hash, decision, reason, train_post, holdout_post, created_at) VALUES(0, 'abc', 'baseline', 'hand-written', 0.5, 0.25, 't0')`,
		`INSERT INTO head VALUES(1, 0)`,
		`INSERT INTO runs(id, task_id, split, score, trace_path, error, created_at) VALUES('r1', 'sum-a', 'train', 0.5, '/traces/r1.jsonl', '', 't1')`,
		`INSERT INTO runs(id, task_id, split, score, trace_path, error, created_at) VALUES('r2', 'sum-h', 'holdout', 1, '/traces/r2.jsonl', '', 't2')`,
	} {
		if _, err := db.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	return path
}

func call(t *testing.T, cs *mcp.ClientSession, name string, args map[string]any) (*mcp.CallToolResult, map[string]any) {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	var out map[string]any
	b, _ := json.Marshal(res.StructuredContent)
	json.Unmarshal(b, &out)
	return res, out
}

func TestMCPWithTheSDKClient(t *testing.T) {
	t.Parallel()
	d, _ := doortest.Open(t, doortest.Fixer, false, func(c *door.Config) { c.Roots = []string{os.TempDir()} })
	server := New(d, ledger(t))
	ct, st := mcp.NewInMemoryTransports()
	ctx := context.Background()
	if _, err := server.Connect(ctx, st, nil); err != nil {
		t.Fatal(err)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test-editor", Version: "1"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	tools, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tl := range tools.Tools {
		names = append(names, tl.Name)
	}
	if strings.Join(names, ",") != "ask,ledger_generations,ledger_runs,sessions" {
		t.Errorf("tools = %v", names)
	}

	proj := doortest.Project(t)
	res, rec := call(t, cs, "ask", map[string]any{"project": proj, "request": "Double is wrong; fix it."})
	text := res.Content[0].(*mcp.TextContent).Text
	if res.IsError || rec["outcome"] != "completed" || !strings.Contains(text, "Fixed Double") {
		t.Errorf("ask: %v %v %q", res.IsError, rec, text)
	}
	if b, _ := os.ReadFile(filepath.Join(proj, "m.go")); string(b) != doortest.Fixed {
		t.Error("the project was not fixed")
	}
	res, _ = call(t, cs, "ask", map[string]any{"project": "/no/such", "request": "x"})
	if !res.IsError || !strings.Contains(res.Content[0].(*mcp.TextContent).Text, "outside the folders") {
		t.Errorf("a project outside the roots must be a tool error: %+v", res)
	}
	marker := filepath.Join(t.TempDir(), "marker")
	res, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "ask", Arguments: map[string]any{"project": proj, "request": "x", "test": "touch " + marker}})
	if err == nil && !res.IsError {
		t.Errorf("a client-named test command was accepted: %+v", res)
	}
	if _, err := os.Stat(marker); err == nil {
		t.Error("the client's command ran")
	}
	_, ss := call(t, cs, "sessions", nil)
	list, _ := ss["sessions"].([]any)
	if len(list) != 1 {
		t.Errorf("sessions = %v", ss)
	} else if first, _ := list[0].(map[string]any); first["id"] == nil || first["requests"] == nil || first["ID"] != nil {
		// snake_case keys, as every JSON of the project (docs/OPERATOR.md, "JSON")
		t.Errorf("a session's keys are not snake_case: %v", first)
	}
	_, gens := call(t, cs, "ledger_generations", map[string]any{"limit": 5})
	if rows, _ := gens["rows"].([]any); len(rows) != 1 || rows[0].(map[string]any)["decision"] != "baseline" || rows[0].(map[string]any)["head"] != float64(1) {
		t.Errorf("generations = %v", gens)
	}
	_, runs := call(t, cs, "ledger_runs", nil)
	rows, _ := runs["rows"].([]any)
	if len(rows) != 2 {
		t.Fatalf("runs = %v", runs)
	}
	for _, r := range rows {
		m := r.(map[string]any)
		if m["split"] == "holdout" && m["trace_path"] != "" {
			t.Errorf("a holdout trace path was shown: %v", m)
		}
	}
}

func TestMCPOverStdio(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("builds the ratchet binary")
	}
	_, file, _, _ := runtime.Caller(0)
	root := filepath.Join(filepath.Dir(file), "..", "..")
	bin := doortest.Ratchet(t)
	home := t.TempDir()
	// Started in / with no root, it refuses to serve everything.
	wide := exec.Command(bin, "mcp", "--home", home)
	wide.Dir = "/"
	if out, err := wide.CombinedOutput(); err == nil || !strings.Contains(string(out), "--root DIR") {
		t.Errorf("ratchet mcp in / without a root: %v %s", err, out)
	}
	// No --root: the folder the editor starts it in is the only root.
	cmd := exec.Command(bin, "mcp", "--home", home, "--harness", filepath.Join(root, "harness"))
	cmd.Dir = t.TempDir()
	cmd.Env = append(os.Environ(), "ANCHOR_HOME="+filepath.Dir(ledger(t)))
	ctx := context.Background()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test-editor", Version: "1"}, nil).Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	_, gens := call(t, cs, "ledger_generations", nil)
	if rows, _ := gens["rows"].([]any); len(rows) != 1 {
		t.Errorf("generations over stdio = %v", gens)
	}
	res, _ := call(t, cs, "ask", map[string]any{"project": doortest.Project(t), "request": "x"})
	if !res.IsError || !strings.Contains(res.Content[0].(*mcp.TextContent).Text, "outside the folders") {
		t.Errorf("a project outside --root over stdio: %+v", res)
	}
}

// A model server that never answered makes the ask tool's result an error
// (isError), as ratchet run exits 3: an editor must not show the error text
// as the agent's answer.
func TestMCPModelDownIsAToolError(t *testing.T) {
	t.Parallel()
	down := func(fakemodel.Request) fakemodel.Step {
		return fakemodel.Step{Status: 400, Body: `{"error":{"message":"model 'scripted' not found"}}`}
	}
	d, _ := doortest.Open(t, down, false, func(c *door.Config) { c.Roots = []string{os.TempDir()} })
	ct, st := mcp.NewInMemoryTransports()
	ctx := context.Background()
	if _, err := New(d, "").Connect(ctx, st, nil); err != nil {
		t.Fatal(err)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test-editor", Version: "1"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	res, rec := call(t, cs, "ask", map[string]any{"project": doortest.Project(t), "request": "Double is wrong; fix it."})
	if !res.IsError {
		t.Errorf("ask with the model down: isError unset, outcome %v", rec["outcome"])
	}
}
