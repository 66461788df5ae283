package anchor

import (
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"

	"ratchet/harness/fakemodel"
)

// sessionModel is a scripted model whose outcome per (system prompt, task
// prompt) is a deterministic coin: it fixes the task when the prompts'
// hash, as a number in [0, 1), is below 0.3, raised by 0.3 for each
// "Helpful tip" in the system prompt. Any change of the system prompt
// redraws every task's coin; a change the model never sees redraws none.
func sessionModel() fakemodel.Step {
	return fakemodel.Step{Func: func(r fakemodel.Request) fakemodel.Step {
		msgs := r.Messages()
		if strings.Contains(string(r.Body), "wrote ") || len(msgs) < 2 {
			return fakemodel.Step{Text: "Done.", In: 80, Out: 5}
		}
		sum := sha256.Sum256(append(msgs[0], msgs[1]...))
		if float64(sum[0])/256 >= 0.3+0.3*float64(strings.Count(string(msgs[0]), "Helpful tip")) {
			return fakemodel.Step{Text: "I give up.", In: 50, Out: 5}
		}
		args, _ := json.Marshal(map[string]string{"path": "sum.go", "content": fixedSum})
		return fakemodel.Step{Calls: []fakemodel.Call{{Name: "write_file", Args: string(args)}}, In: 60, Out: 40}
	}}
}

// benchInt reads a size from the environment, or def.
func benchInt(key string, def int) int {
	if n, err := strconv.Atoi(os.Getenv(key)); err == nil && n > 0 {
		return n
	}
	return def
}

// decision is one apply of the session: its kind, outcome and cost.
type decision struct {
	kind, decision, stopped string
	runs, requests          int
}

// BenchmarkScreenedSession plays an evolve-like session through the real
// anchor twice, screened and with ANCHOR_SCREEN=off, on tasks scored by
// exit status: per 7 candidates, 4 neutral (a sentence added to the system
// prompt), 2 that change a code path the model never sees (a comment in a
// tool) and 1 that truly helps (a "Helpful tip"). The defaults are the
// bundled suite's split sizes and issue 22's 35 candidates;
// BENCH_TRAIN, BENCH_HOLDOUT and BENCH_CANDIDATES scale it down. Run it
// once: -benchtime 1x.
func BenchmarkScreenedSession(b *testing.B) {
	train, hold, n := benchInt("BENCH_TRAIN", 146), benchInt("BENCH_HOLDOUT", 94), benchInt("BENCH_CANDIDATES", 35)
	devnull, _ := os.Open(os.DevNull)
	defer func(old *os.File) { os.Stderr = old }(os.Stderr)
	os.Stderr = devnull
	for b.Loop() {
		modes := map[string][]decision{}
		for _, mode := range []string{"on", "off"} {
			e := newEnv(b, repeat(sessionModel(), 1<<22)...)
			e.a.Screen = mode
			for i := range train {
				addExitTask(b, e.suite, "train", fmt.Sprintf("s-t%03d", i))
			}
			for i := range hold {
				addExitTask(b, e.suite, "holdout", fmt.Sprintf("s-h%03d", i))
			}
			dir := copyHarness(b)
			if err := e.a.Init(ctx(), dir); err != nil {
				b.Fatal(err)
			}
			for i := range n {
				kind, component := "neutral", "system_prompt.md"
				text := readHarness(b, dir, component) + fmt.Sprintf("Note %d: stay calm.\n", i)
				switch i % 7 {
				case 2, 4:
					kind, component = "never-sees", "tools/list_dir.go"
					text = readHarness(b, dir, component) + fmt.Sprintf("\n// Note %d, for readers of the code only.\n", i)
				case 6:
					kind, text = "helpful", readHarness(b, dir, component)+fmt.Sprintf("Helpful tip %d: fix the loop bound.\n", i)
				}
				diff := makeDiff(b, dir, map[string]string{component: text})
				if err := e.a.Apply(ctx(), e.candidateB(b, component, diff)); err != nil {
					b.Fatal(err)
				}
				gs, _ := e.a.gens("")
				g := gs[len(gs)-1]
				modes[mode] = append(modes[mode], decision{kind, g.Decision, g.Stopped, g.Runs, g.Requests})
			}
		}
		reportSession(b, modes["on"], modes["off"])
	}
}

// reportSession logs each decision side by side and reports the shares.
func reportSession(b *testing.B, on, off []decision) {
	type sum struct{ n, runs, requests, offRuns, offRequests, accepts, offAccepts int }
	by := map[string]*sum{}
	for i := range on {
		b.Logf("%2d %-10s screened %-7s %4d runs %5d requests (%s) | full %-7s %4d runs %5d requests", i, on[i].kind,
			on[i].decision, on[i].runs, on[i].requests, on[i].stopped, off[i].decision, off[i].runs, off[i].requests)
		for _, key := range []string{on[i].kind, on[i].decision} {
			if by[key] == nil {
				by[key] = &sum{}
			}
			s := by[key]
			s.n, s.runs, s.requests, s.offRuns, s.offRequests = s.n+1, s.runs+on[i].runs, s.requests+on[i].requests,
				s.offRuns+off[i].runs, s.offRequests+off[i].requests
			s.accepts, s.offAccepts = s.accepts+b2i(on[i].decision == "accept"), s.offAccepts+b2i(off[i].decision == "accept")
		}
	}
	for _, key := range []string{"reject", "accept", "neutral", "never-sees", "helpful"} {
		if s := by[key]; s != nil {
			b.Logf("%-10s %2d decisions: screened %d runs, %d requests; full %d runs, %d requests: %.0f%% of runs, %.0f%% of "+
				"requests; accepted %d screened, %d full", key, s.n, s.runs, s.requests, s.offRuns, s.offRequests,
				100*float64(s.runs)/float64(max(s.offRuns, 1)), 100*float64(s.requests)/float64(max(s.offRequests, 1)),
				s.accepts, s.offAccepts)
			b.ReportMetric(float64(s.requests)/float64(max(s.offRequests, 1)), key+"-requests-share")
		}
	}
}

// candidateB is testEnv.candidate for a benchmark.
func (e *testEnv) candidateB(b *testing.B, component, diff string) string {
	dir := b.TempDir()
	writeFiles(b, dir, map[string]string{"c.diff": diff})
	body, _ := json.Marshal(map[string]any{"diff": "c.diff", "component": component, "hypothesis": "bench"})
	writeFiles(b, dir, map[string]string{"c.json": string(body)})
	return dir + "/c.json"
}
