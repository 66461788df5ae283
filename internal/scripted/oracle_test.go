package scripted

import (
	"bytes"
	"context"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"ratchet/anchor"
	"ratchet/harness/agent"
	"ratchet/harness/memory"
	"ratchet/harness/model"
	"ratchet/harness/trace"
)

// suite writes a two-task suite; one prompt begins the other, so the oracle
// must match the whole prompt.
func suite(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	for id, prompt := range map[string]string{"sum-a": "Sum is wrong. Fix it.", "sum-b": "Sum is wrong. Fix it. Also Mul."} {
		files := map[string][]byte{
			"task.toml":          fmt.Appendf(nil, "prompt = \"\"\"\n%s\n\"\"\"\ntest = \"go test ./...\"\n", prompt),
			"repo/go.mod":        []byte("module example.com/m\n\ngo 1.26\n"),
			"repo/m/sum.go":      []byte("package m\n\nfunc Sum(a, b int) int { return a - b }\n"),
			"reference/m/sum.go": []byte("package m\n\n// " + id + "\nfunc Sum(a, b int) int { return a + b }\n"),
		}
		if err := anchor.WriteTree(filepath.Join(dir, "train", id), files); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

type noTrace struct{}

func (noTrace) Event(string, map[string]any) {}
func (noTrace) Emit(trace.Event)             {}

// runAgent runs the harness's own loop, tools and middleware on a copy of
// the task's repo against url, and returns the final tree and the stop reason.
func runAgent(t *testing.T, api, url, system, taskDir string) (map[string][]byte, string) {
	t.Helper()
	task, err := anchor.LoadTask(taskDir)
	if err != nil {
		t.Fatal(err)
	}
	repo, err := anchor.ReadTree(filepath.Join(taskDir, "repo"), true)
	if err != nil {
		t.Fatal(err)
	}
	root := filepath.Join(t.TempDir(), "task")
	if err := anchor.WriteTree(root, repo); err != nil {
		t.Fatal(err)
	}
	res := agent.Run(context.Background(), agent.Config{
		Model:        model.New(model.Config{API: api, URL: url, Name: "oracle"}),
		SystemPrompt: system,
		Prompt:       task.Prompt,
		Root:         root,
		TestCommand:  "true",
		Trace:        noTrace{},
		Tools:        agent.Tools(),
		Middleware:   agent.Middleware(),
		Memory:       memory.New(),
	})
	if res.Err != nil {
		t.Fatalf("agent run: %v", res.Err)
	}
	final, err := anchor.ReadTree(root, false)
	if err != nil {
		t.Fatal(err)
	}
	return final, res.Reason
}

func TestOracleSolvesWithThePhrase(t *testing.T) {
	dir := suite(t)
	srv, err := StartOracle(Oracle{Suite: dir, Phrase: "Read every failing test first.", Rate: 0})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	for _, tc := range []struct {
		api, system, task string
		solved            bool
	}{
		{"openai", "You fix Go code.", "sum-a", false},
		{"openai", "You fix Go code.\nRead every failing test first.\n", "sum-a", true},
		{"anthropic", "You fix Go code.\nRead every failing test first.\n", "sum-b", true},
		{"anthropic", "You fix Go code.", "sum-b", false},
	} {
		final, reason := runAgent(t, tc.api, srv.URL, tc.system, filepath.Join(dir, "train", tc.task))
		got := string(final["m/sum.go"])
		want := "package m\n\nfunc Sum(a, b int) int { return a - b }\n"
		if tc.solved {
			want = "package m\n\n// " + tc.task + "\nfunc Sum(a, b int) int { return a + b }\n"
		}
		if got != want {
			t.Errorf("%s %s phrase=%v: m/sum.go = %q, want %q (stop: %s)", tc.api, tc.task, tc.solved, got, want, reason)
		}
	}
	// Giving up: it lists the task, reads every file that is not a test, stops.
	n := len(srv.Requests())
	runAgent(t, "openai", srv.URL, "no phrase", filepath.Join(dir, "train", "sum-a"))
	reqs := srv.Requests()[n:]
	if len(reqs) != 3 || !strings.Contains(string(reqs[2].Body), "func Sum(a, b int) int { return a - b }") || strings.Contains(string(reqs[2].Body), "write_file\",\"arguments") {
		t.Errorf("giving up took %d requests; the last one should hold m/sum.go as read", len(reqs))
	}
}

func TestOracleTellsApartTasksThatShareAPrompt(t *testing.T) {
	dir := t.TempDir()
	for _, id := range []string{"clock", "recipe"} {
		files := map[string][]byte{
			"task.toml":                          []byte("prompt = \"Make the tests pass.\"\ntest = \"go test ./...\"\n"),
			"repo/go.mod":                        []byte("module example.com/" + id + "\n\ngo 1.26\n"),
			"repo/" + id + "/" + id + ".go":      []byte("package " + id + "\n"),
			"reference/" + id + "/" + id + ".go": []byte("package " + id + "\n\n// fixed\n"),
		}
		if err := anchor.WriteTree(filepath.Join(dir, "train", id), files); err != nil {
			t.Fatal(err)
		}
	}
	srv, err := StartOracle(Oracle{Suite: dir, Rate: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	for _, id := range []string{"clock", "recipe"} {
		final, _ := runAgent(t, "openai", srv.URL, "any", filepath.Join(dir, "train", id))
		if got := string(final[id+"/"+id+".go"]); !strings.Contains(got, "// fixed") || len(final) != 2 {
			t.Errorf("task %s: wrote %v; want its own reference only", id, slices.Sorted(maps.Keys(final)))
		}
	}
}

func TestOracleCoin(t *testing.T) {
	o := Oracle{Rate: 0.3}
	system := "You fix Go code."
	solved := 0
	for i := range 1000 {
		id := fmt.Sprintf("task-%d", i)
		s := o.Solves(system, id)
		if s != o.Solves(system, id) {
			t.Fatalf("the coin of %s is not deterministic", id)
		}
		if s {
			solved++
		}
	}
	if solved < 250 || solved > 350 {
		t.Errorf("rate 0.3 solved %d of 1000 tasks", solved)
	}
	// Any change of the system prompt re-rolls the coins.
	moved := 0
	for i := range 1000 {
		id := fmt.Sprintf("task-%d", i)
		if o.Solves(system, id) != o.Solves(system+" ", id) {
			moved++
		}
	}
	if moved < 300 || moved > 540 { // expected 2 * 0.3 * 0.7 = 42%
		t.Errorf("a one-space edit moved %d of 1000 tasks", moved)
	}
	if (Oracle{Rate: 0}).Solves(system, "x") || !(Oracle{Rate: 1}).Solves(system, "x") {
		t.Error("rate 0 must never solve and rate 1 always")
	}
	if (Oracle{Phrase: ""}).Solves(system, "x") {
		t.Error("an empty phrase must not solve")
	}
}

func TestOracleRateWithoutPhrase(t *testing.T) {
	dir := suite(t)
	srv, err := StartOracle(Oracle{Suite: dir, Rate: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	final, _ := runAgent(t, "openai", srv.URL, "anything", filepath.Join(dir, "train", "sum-b"))
	if !bytes.Contains(final["m/sum.go"], []byte("// sum-b")) {
		t.Errorf("rate 1 did not solve sum-b with sum-b's reference: %q", final["m/sum.go"])
	}
}

func TestOracleBundledSuite(t *testing.T) {
	suite := filepath.Join("..", "..", "tasks", "example")
	srv, err := StartOracle(Oracle{Suite: suite, Phrase: "PHRASE"})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	dirs, _ := filepath.Glob(filepath.Join(suite, "train", "*"))
	task := dirs[0]
	final, _ := runAgent(t, "openai", srv.URL, "PHRASE", task)
	ref, _ := anchor.ReadTree(filepath.Join(task, "reference"), true)
	for name, body := range ref {
		if !bytes.Equal(final[name], body) {
			t.Errorf("%s: %s was not written from the reference", filepath.Base(task), name)
		}
	}
}

func TestStartOracleNeedsTasks(t *testing.T) {
	_, err := StartOracle(Oracle{Suite: t.TempDir()})
	if err == nil || !strings.Contains(err.Error(), "no tasks") {
		t.Errorf("empty suite: %v", err)
	}
	bad := t.TempDir()
	os.MkdirAll(filepath.Join(bad, "train", "x"), 0o755)
	os.WriteFile(filepath.Join(bad, "train", "x", "task.toml"), []byte("nothing = 1\n"), 0o644)
	if _, err := StartOracle(Oracle{Suite: bad}); err == nil {
		t.Error("a task without a prompt was accepted")
	}
}
