package anchor

import (
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"ratchet/harness/fakemodel"
)

// noopHarness is a harness that exits at once: with `true` as the task's
// test, a run measures the anchor's own overhead.
func noopHarness(b *testing.B) string {
	dir := b.TempDir()
	writeFiles(b, dir, map[string]string{"go.mod": "module noop\n\ngo 1.26\n", "main.go": "package main\n\nfunc main() {}\n",
		"manifest.toml": "editable = []\n"})
	return dir
}

// BenchmarkBareBwrapTrue is the floor: bubblewrap starting `true` with the
// system directories bound and nothing else.
func BenchmarkBareBwrapTrue(b *testing.B) {
	args := []string{"--unshare-all", "--die-with-parent", "--ro-bind", "/usr", "/usr", "--symlink", "usr/bin", "/bin",
		"--symlink", "usr/lib", "/lib", "--symlink", "usr/lib64", "/lib64", "--proc", "/proc", "--dev", "/dev", "true"}
	for b.Loop() {
		if out, err := exec.Command("bwrap", args...).CombinedOutput(); err != nil {
			b.Fatalf("%v %s", err, out)
		}
	}
}

// BenchmarkAnchorRunNoop is one uncached anchor run: build (cached), agent
// sandbox with the model proxy, copy-out, scoring sandbox, ledger row.
func BenchmarkAnchorRunNoop(b *testing.B) {
	e := newEnv(b)
	task := filepath.Join(e.suite, "train", "noop")
	writeFiles(b, task, map[string]string{"task.toml": "prompt = \"nothing\"\ntest = \"true\"\n", "repo/README": "x\n"})
	hash, err := e.a.Snapshot(noopHarness(b))
	if err != nil {
		b.Fatal(err)
	}
	if r, err := e.a.RunTask(ctx(), hash, task, 0, true); err != nil || r.Score != 1 {
		b.Fatalf("warm-up run: %+v %v", r, err)
	}
	for b.Loop() {
		if _, err := e.a.RunTask(ctx(), hash, task, 0, true); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkEvalCached1000 evaluates a split of 1000 tasks whose runs are
// all in the cache: task hashing, cache lookups, the evals row.
func BenchmarkEvalCached1000(b *testing.B) {
	e := newEnv(b)
	hash, _ := e.a.Snapshot(noopHarness(b))
	for i := range 1000 {
		dir := filepath.Join(e.suite, "train", fmt.Sprintf("t%04d", i))
		writeFiles(b, dir, map[string]string{"task.toml": "prompt = \"task\"\ntest = \"true\"\n", "repo/main.go": fmt.Sprintf("package main // %d\n", i)})
		files, _ := ReadTree(dir, true)
		r := Run{ID: fmt.Sprintf("r%04d", i), HarnessHash: hash, TaskHash: HashOf(files), TaskID: filepath.Base(dir), Split: "train",
			Model: e.a.Model(), Score: 1, Passed: 1, Total: 1, CreatedAt: now(), Judge: judge()}
		if err := put(e.a.db, "runs", runCols, r.fields()...); err != nil {
			b.Fatal(err)
		}
	}
	devnull, _ := os.Open(os.DevNull)
	defer func(old *os.File) { os.Stderr = old }(os.Stderr)
	os.Stderr = devnull
	for b.Loop() {
		ev, err := e.a.Evaluate(ctx(), hash, "train", false)
		mean, runs := ev.Mean, ev.Runs
		if err != nil || mean != 1 || len(runs) != 1000 || !runs[999].Cached {
			b.Fatalf("mean %v, %d runs, %v", mean, len(runs), err)
		}
	}
}

func benchCalls(b *testing.B, c *http.Client, url string) {
	body := `{"model":"m","messages":[{"role":"user","content":"hi"}]}`
	for b.Loop() {
		resp, err := c.Post(url+"/v1/chat/completions", "application/json", strings.NewReader(body))
		if err != nil {
			b.Fatal(err)
		}
		resp.Body.Close()
	}
}

// BenchmarkModelCallDirect and BenchmarkModelCallViaProxy are the same call
// to the same loopback server; their difference is the proxy's added latency.
func BenchmarkModelCallDirect(b *testing.B) {
	srv, _ := fakemodel.Start()
	defer srv.Close()
	benchCalls(b, &http.Client{Timeout: 10 * time.Second}, srv.URL)
}

func BenchmarkModelCallViaProxy(b *testing.B) {
	srv, _ := fakemodel.Start()
	defer srv.Close()
	sock := filepath.Join(b.TempDir(), "m.sock")
	p, err := StartProxy(sock, ProxyConfig{API: "openai", Upstream: srv.URL, Model: "m", Key: "sk-bench", Budget: 1 << 62})
	if err != nil {
		b.Fatal(err)
	}
	defer p.Close()
	benchCalls(b, unixClient(sock), "http://model")
}
