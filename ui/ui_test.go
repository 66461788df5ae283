package ui

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"ratchet/harness/fakemodel"
)

func write(t *testing.T, root string, files map[string]string) {
	t.Helper()
	for name, body := range files {
		p := filepath.Join(root, name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// buildLedger makes a real ledger with the real anchor: a baseline, one
// accepted edit and one rejected edit, on three small tasks.
func buildLedger(t *testing.T) string {
	_, file, _, _ := runtime.Caller(0)
	root := filepath.Join(filepath.Dir(file), "..")
	bin := filepath.Join(t.TempDir(), "anchor")
	build := exec.Command("go", "build", "-o", bin, "./cmd/anchor")
	build.Dir = root
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("build anchor: %v %s", err, out)
	}
	const buggy = "package m\n\nfunc Double(x int) int { return x + x + 1 }\n"
	const fixed = "package m\n\nfunc Double(x int) int { return x + x }\n"
	test := "package m\n\nimport \"testing\"\n\nfunc TestTwo(t *testing.T) {\n\tif Double(2) != 4 {\n\t\tt.Fatal(Double(2))\n\t}\n}\n"
	suite := filepath.Join(t.TempDir(), "suite")
	for _, st := range [][2]string{{"train", "double-a"}, {"train", "double-b"}, {"holdout", "double-h"}} {
		write(t, filepath.Join(suite, st[0], st[1]), map[string]string{"task.toml": "prompt = \"Double is wrong in " + st[1] + ". Fix it.\"\ntest = \"go test ./...\"\n",
			"repo/go.mod": "module example.com/m\n\ngo 1.26\n", "repo/m.go": buggy, "repo/NOTES.txt": strings.Repeat("a long note line\n", 600), "repo/m_test.go": test, "hidden/m_test.go": test, "reference/m.go": fixed})
	}
	steps := make([]fakemodel.Step, 1000)
	for i := range steps {
		steps[i] = fakemodel.Step{Func: func(r fakemodel.Request) fakemodel.Step {
			body := string(r.Body)
			switch {
			case !strings.Contains(body, "CAREFUL"):
				return fakemodel.Step{Text: "I give up.", Calls: nil, In: 40, Out: 4}
			case strings.Contains(body, "wrote "):
				return fakemodel.Step{Text: "Fixed Double.", In: 90, Out: 5}
			}
			args, _ := json.Marshal(map[string]string{"path": "m.go", "content": fixed})
			return fakemodel.Step{Text: "Reading then fixing.", Calls: []fakemodel.Call{{ID: "c0", Name: "read_file", Args: `{"path":"NOTES.txt"}`},
				{ID: "c1", Name: "write_file", Args: string(args)}}, In: 60, Out: 30}
		}}
	}
	srv, err := fakemodel.Start(steps...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Close)
	home := filepath.Join(t.TempDir(), "home")
	harness := filepath.Join(t.TempDir(), "harness")
	cp := exec.Command("cp", "-r", filepath.Join(root, "harness"), harness)
	if out, err := cp.CombinedOutput(); err != nil {
		t.Fatal(err, string(out))
	}
	anchor := func(args ...string) string {
		cmd := exec.Command(bin, append(args[:1:1], append([]string{"--home", home, "--tasks", suite}, args[1:]...)...)...)
		cmd.Env = append(os.Environ(), "MODEL_URL="+srv.URL, "MODEL_NAME=scripted", "MODEL_API=openai", "MODEL_OPTIONS=")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("anchor %v: %v\n%s", args, err, out)
		}
		return string(out)
	}
	anchor("init", "--harness", harness)
	prompt, _ := os.ReadFile(filepath.Join(harness, "system_prompt.md"))
	for i, line := range []string{"Be brief.\n", "Be CAREFUL: read before you write.\n"} {
		dir := t.TempDir()
		write(t, dir, map[string]string{"a/system_prompt.md": string(prompt), "b/system_prompt.md": string(prompt) + line})
		diff := exec.Command("git", "diff", "--no-index", "--no-prefix", "a", "b")
		diff.Dir = dir
		out, _ := diff.Output()
		traces := anchor("traces", "--split", "train", "--failed", "--json")
		var runs []struct{ ID string }
		json.Unmarshal([]byte(traces), &runs)
		cand, _ := json.Marshal(map[string]any{"diff": "c.diff", "component": "system_prompt.md", "hypothesis": []string{"Brevity helps.", "Care helps: read before writing."}[i], "trace_ids": []string{runs[0].ID}})
		write(t, dir, map[string]string{"c.diff": string(out), "c.json": string(cand)})
		anchor("apply", "--candidate", filepath.Join(dir, "c.json"))
	}
	return home
}

func browser(t *testing.T) (context.Context, context.CancelFunc) {
	path, err := exec.LookPath("chromium")
	if err != nil {
		t.Skip("no chromium: install Debian's chromium package (scripts/deps.sh does it as root)")
	}
	opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(path), chromedp.NoSandbox, chromedp.DisableGPU,
		chromedp.UserDataDir(t.TempDir()), chromedp.Flag("disable-background-networking", true), chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true), chromedp.Flag("no-first-run", true), chromedp.WindowSize(1280, 900))
	actx, cancelA := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancelB := chromedp.NewContext(actx)
	ctx, cancelC := context.WithTimeout(ctx, 90*time.Second)
	return ctx, func() { cancelC(); cancelB(); cancelA() }
}

// shot keeps a screenshot of a view in docs/ when RATCHET_SCREENSHOTS names
// the folder.
func shot(t *testing.T, ctx context.Context, name string) {
	dir := os.Getenv("RATCHET_SCREENSHOTS")
	if dir == "" {
		return
	}
	buf, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, "ui-"+name+".png"), buf, 0o644)
}

func TestDashboardInChromium(t *testing.T) {
	ctx, cancel := browser(t)
	defer cancel()
	home := buildLedger(t)
	srv := httptest.NewServer(Handler{Home: home})
	defer srv.Close()
	load := func(hash string) {
		t.Helper()
		if err := chromedp.Do(ctx, chromedp.Navigate(srv.URL+"/"+hash), chromedp.WaitVisible(chromedp.CSS(`body[data-ready="`+strings.TrimPrefix(hash, "#")+`"]`))); err != nil {
			t.Fatalf("load %s: %v", hash, err)
		}
	}
	text := func(sel string) string {
		t.Helper()
		s, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS(sel)))
		if err != nil {
			t.Fatalf("text %s: %v", sel, err)
		}
		return s
	}

	load("#/")
	gens := text("#generations")
	for _, want := range []string{"baseline", "accept", "reject", "train did not improve", "0.000 → 1.000"} {
		if !strings.Contains(gens, want) {
			t.Errorf("the generations table lacks %q:\n%s", want, gens)
		}
	}
	points, err := chromedp.Run(ctx, chromedp.Evaluate[int](`document.querySelectorAll("#chart-svg circle.point").length`))
	if err != nil || points != 5 {
		t.Errorf("the chart has %d points, want 5 (train for 3 generations, holdout for the 2 that reached it): %v", points, err)
	}
	shot(t, ctx, "generations")

	load("#/gen/2")
	g := text("#generation")
	if !strings.Contains(g, "accept") || !strings.Contains(g, "Care helps: read before writing.") || !strings.Contains(g, "system_prompt.md") {
		t.Errorf("generation view:\n%s", g)
	}
	if d := text("#diff"); !strings.Contains(d, "+Be CAREFUL: read before you write.") {
		t.Errorf("diff view:\n%s", d)
	}
	shot(t, ctx, "generation")

	load("#/matrix")
	m := text("#matrix")
	if !strings.Contains(m, "double-a") || !strings.Contains(m, "double-h") || !strings.Contains(m, "0/1") || !strings.Contains(m, "1/1") || !strings.Contains(m, "holdout") {
		t.Errorf("matrix:\n%s", m)
	}
	link, err := chromedp.Run(ctx, chromedp.AttributeValue(chromedp.CSS(`#matrix td.pass a`), "href"))
	if err != nil {
		t.Fatal(err)
	}
	traceLink := link.Value
	shot(t, ctx, "matrix")

	load(traceLink)
	ev := text("#events")
	for _, want := range []string{"model_call", "model_reply", "tool_call", "write_file", "tool_result", "wrote ", "done", "completed", "truncated: the model saw", "usage in 60 / out 30"} {
		if !strings.Contains(ev, want) {
			t.Errorf("the trace view lacks %q:\n%s", want, ev)
		}
	}
	shot(t, ctx, "trace")

	// Holdout traces stay hidden, through the page and the API.
	resp, err := http.Get(srv.URL + "/api/matrix")
	if err != nil {
		t.Fatal(err)
	}
	var rows []map[string]any
	json.NewDecoder(resp.Body).Decode(&rows)
	resp.Body.Close()
	for _, r := range rows {
		if r["split"] == "holdout" && r["run_id"] != "" {
			t.Errorf("a holdout run is linked: %v", r)
		}
	}
}

func TestAPIRefusesHoldoutTracesAndBadPaths(t *testing.T) {
	home := t.TempDir()
	h := Handler{Home: home}
	for path, code := range map[string]int{"/api/generations": 503, "/api/diff/../../etc/passwd": 400, "/api/trace/zz": 503} {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest("GET", path, nil))
		if rec.Code != code {
			t.Errorf("%s: %d, want %d", path, rec.Code, code)
		}
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest("GET", "/", nil))
	if rec.Code != 200 || !strings.Contains(rec.Body.String(), "app.js") {
		t.Errorf("the page: %d", rec.Code)
	}
}
