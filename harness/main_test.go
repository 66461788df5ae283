package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"ratchet/harness/fakemodel"
)

const buggy = `package stats

// Mean returns the arithmetic mean of xs, or 0 for no values.
func Mean(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	var sum float64
	for _, x := range xs {
		sum += x
	}
	return sum / float64(len(xs)-1)
}
`

const statsTest = `package stats

import "testing"

func TestMean(t *testing.T) {
	if got := Mean([]float64{1, 2, 3, 6}); got != 3 {
		t.Fatalf("Mean = %v, want 3", got)
	}
	if got := Mean(nil); got != 0 {
		t.Fatalf("Mean(nil) = %v, want 0", got)
	}
}
`

// TestEndToEnd builds the harness binary and runs it, as the anchor would,
// against a scripted model on a unix socket, on a task with a real bug.
func TestEndToEnd(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary and runs go test")
	}
	bin := filepath.Join(t.TempDir(), "harness")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("build: %v\n%s", err, out)
	}
	for _, api := range []string{"openai", "anthropic"} {
		t.Run(api, func(t *testing.T) {
			work := t.TempDir()
			task := filepath.Join(work, "task")
			os.MkdirAll(filepath.Join(task, "stats"), 0o755)
			os.WriteFile(filepath.Join(task, "go.mod"), []byte("module example.com/stats\n\ngo 1.26\n"), 0o644)
			os.WriteFile(filepath.Join(task, "stats", "stats.go"), []byte(buggy), 0o644)
			os.WriteFile(filepath.Join(task, "stats", "stats_test.go"), []byte(statsTest), 0o644)
			os.WriteFile(filepath.Join(work, "prompt.txt"), []byte("Mean gives wrong answers. Fix it."), 0o644)
			os.WriteFile(filepath.Join(work, "test.txt"), []byte("go test ./...\n"), 0o644)

			fixed := strings.Replace(buggy, "len(xs)-1", "len(xs)", 1)
			args, _ := json.Marshal(map[string]string{"path": "stats/stats.go", "content": fixed})
			sock := filepath.Join(t.TempDir(), "model.sock")
			srv, err := fakemodel.StartUnix(sock,
				fakemodel.Step{Calls: []fakemodel.Call{{Name: "list_dir", Args: `{}`}}, In: 100, Out: 10},
				fakemodel.Step{Calls: []fakemodel.Call{{Name: "read_file", Args: `{"path":"stats/stats.go"}`}}, In: 150, Out: 10},
				fakemodel.Step{Calls: []fakemodel.Call{{Name: "run_tests", Args: `{}`}}, In: 200, Out: 10},
				fakemodel.Step{Calls: []fakemodel.Call{{Name: "write_file", Args: string(args)}}, In: 300, Out: 80},
				fakemodel.Step{Calls: []fakemodel.Call{{Name: "run_tests", Args: `{}`}}, In: 400, Out: 10},
				fakemodel.Step{Text: "Fixed the divisor in Mean.", In: 450, Out: 8},
			)
			if err != nil {
				t.Fatal(err)
			}
			defer srv.Close()

			cmd := exec.Command(bin, work)
			cmd.Env = append(os.Environ(), "MODEL_API="+api, "MODEL_SOCKET="+sock, "MODEL_NAME=scripted")
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Fatalf("harness: %v\n%s", err, out)
			}
			test := exec.Command("go", "test", "./...")
			test.Dir = task
			if out, err := test.CombinedOutput(); err != nil {
				t.Fatalf("the bug is not fixed: %v\n%s", err, out)
			}
			raw, err := os.ReadFile(filepath.Join(work, "trace.jsonl"))
			if err != nil {
				t.Fatal(err)
			}
			var results []string
			var done map[string]any
			for _, line := range strings.Split(strings.TrimSpace(string(raw)), "\n") {
				var e map[string]any
				if err := json.Unmarshal([]byte(line), &e); err != nil {
					t.Fatalf("bad trace line %q", line)
				}
				if e["type"] == "tool_result" && e["name"] == "run_tests" {
					results = append(results, e["result"].(string))
				}
				if e["type"] == "done" {
					done = e
				}
			}
			if len(results) != 2 || !strings.Contains(results[0], "FAIL") || !strings.Contains(results[1], "ok") {
				t.Errorf("run_tests results = %q", results)
			}
			if done["reason"] != "completed" || done["steps"] != float64(6) {
				t.Errorf("done = %v", done)
			}
		})
	}
}
