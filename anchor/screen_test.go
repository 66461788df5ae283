package anchor

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"ratchet/harness/fakemodel"
)

// An apply killed half way and run again pays nothing twice: the upstream
// sees no answered request twice (finished runs come from the run cache,
// the killed runs' answered requests from the reply cache), and the
// decision is the one an uninterrupted apply makes. The one request in
// flight at the kill may be asked again: whether its reply reached the
// anchor before the kill did is a race, and a reply that did not is not in
// the record.
func TestResumeAfterKillPaysNothingTwice(t *testing.T) {
	slow(t)
	t.Parallel()
	helps := "Always run the tests after every edit."
	var count, killAt atomic.Int64
	var kill atomic.Pointer[context.CancelFunc]
	var inflight atomic.Value
	model := coinModel(helps)
	live := model.Func
	model.Func = func(r fakemodel.Request) fakemodel.Step {
		if count.Add(1) == killAt.Load() {
			inflight.Store(string(r.Body))
			(*kill.Load())()
		}
		return live(r)
	}
	e, dir := gateSuite(t, model, addExitTask)
	prompt := readHarness(t, dir, "system_prompt.md")
	path := e.candidate(t, "system_prompt.md", makeDiff(t, dir, map[string]string{"system_prompt.md": prompt + helps + "\n"}))
	c, cancel := context.WithCancel(ctx())
	kill.Store(&cancel)
	killAt.Store(count.Load() + 9)
	if err := e.a.Apply(c, path); err == nil {
		t.Fatal("the killed apply returned no error")
	}
	killed := e.last(t)
	if killed.Decision != "interrupted" || killed.Requests == 0 {
		t.Fatalf("the killed apply: %s (%d requests): %s", killed.Decision, killed.Requests, killed.Reason)
	}
	if err := e.a.Apply(ctx(), path); err != nil {
		t.Fatal(err)
	}
	resumed := e.last(t)
	seen := map[string]int{}
	for _, r := range e.srv.Requests() {
		seen[string(r.Body)]++
		if n := seen[string(r.Body)]; n > 2 || n == 2 && string(r.Body) != inflight.Load() {
			t.Errorf("the upstream was sent an answered request %d times: %.200s", n, r.Body)
		}
	}
	var cached int
	e.a.db.QueryRow(`SELECT COALESCE(SUM(cached_replies), 0) FROM runs WHERE harness_hash = ?`, resumed.Hash).Scan(&cached)
	t.Logf("killed: %d runs, %d requests; resumed: %d runs (%d from the run cache), %d requests, %d replies from the reply cache",
		killed.Runs, killed.Requests, resumed.Runs, resumed.RunsCached, resumed.Requests, cached)
	if resumed.RunsCached == 0 {
		t.Errorf("the resumed apply took no run from the run cache")
	}
	f, fdir := gateSuite(t, coinModel(helps), addExitTask)
	prompt = readHarness(t, fdir, "system_prompt.md")
	if err := f.a.Apply(ctx(), f.candidate(t, "system_prompt.md", makeDiff(t, fdir, map[string]string{"system_prompt.md": prompt + helps + "\n"}))); err != nil {
		t.Fatal(err)
	}
	whole := f.last(t)
	if resumed.Decision != whole.Decision || resumed.Reason != whole.Reason || resumed.Stopped != whole.Stopped {
		t.Errorf("resumed: %s (%s) %s; uninterrupted: %s (%s) %s", resumed.Decision, resumed.Stopped, resumed.Reason,
			whole.Decision, whole.Stopped, whole.Reason)
	}
}

// run runs the task at dir with harness hash, through the run cache unless forced.
func (e *testEnv) run(t *testing.T, hash, dir string, repeat int, force bool) Run {
	t.Helper()
	r, err := e.a.RunTask(ctx(), hash, dir, repeat, force)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// A run that sends what an earlier run of its task and repeat sent (here a
// harness that differs only in a comment of a tool's code) gets the
// recorded replies and is charged their recorded usage; the upstream sees
// none of it. The same requests of another task (which differs only in
// what the harness never sees) or another repeat go upstream, and so does
// a forced run (--force asks the model again).
func TestReplyCacheChargesAndIsolates(t *testing.T) {
	slow(t)
	t.Parallel()
	for _, api := range []string{"openai", "anthropic"} { // anthropic requests carry no seed: the key's repeat tells repeats apart
		t.Run(api, func(t *testing.T) {
			e, dir := gateSuite(t, coinModel("never"), addExitTask)
			e.a.API = api
			head, err := e.a.head()
			if err != nil {
				t.Fatal(err)
			}
			tool := readHarness(t, dir, "tools/list_dir.go")
			writeFiles(t, dir, map[string]string{"tools/list_dir.go": tool + "\n// A note the model never reads.\n"})
			twin, err := e.a.Snapshot(dir)
			if err != nil || twin == head.Hash {
				t.Fatalf("the twin harness: %v", err)
			}
			a := addExitTask(t, e.suite, "train", "twin-a")
			b := addExitTask(t, e.suite, "train", "twin-b")
			for _, dir := range []string{a, b} { // the same prompt and repo; only the task's id in task.toml differs
				writeFiles(t, dir, map[string]string{"task.toml": "prompt = \"Sum is wrong. Fix it.\"\ntest = \"grep -q 'i := 0' sum.go\"\n" +
					"timeout = \"120s\"\n# " + dir + "\n"})
			}
			upstream := func() int { return len(e.srv.Requests()) }
			n0 := upstream()
			first := e.run(t, head.Hash, a, 0, false)
			n1 := upstream()
			e.a.incumbent = head.Hash // the twin is judged against the head: it may be served the head's replies
			again := e.run(t, twin, a, 0, false)
			n2 := upstream()
			if first.Requests == 0 || n1-n0 != first.Requests {
				t.Fatalf("first run: %d requests counted, %d seen upstream", first.Requests, n1-n0)
			}
			if n2 != n1 || again.Requests != 0 || again.CachedReplies != first.Requests {
				t.Errorf("the same requests again sent %d upstream (%d counted); %d of %d replies from the cache",
					n2-n1, again.Requests, again.CachedReplies, first.Requests)
			}
			// A harness judged against no one it shares replies with (a rejected
			// candidate's twin, say) is served none: a rejected candidate cannot
			// curate the draws another harness gets.
			writeFiles(t, dir, map[string]string{"tools/list_dir.go": tool + "\n// Another note the model never reads.\n"})
			other, err := e.a.Snapshot(dir)
			if err != nil {
				t.Fatal(err)
			}
			e.a.incumbent = ""
			if o := e.run(t, other, a, 0, false); o.CachedReplies != 0 || o.Requests != first.Requests {
				t.Errorf("a harness with no incumbent was served %d recorded replies (%d live)", o.CachedReplies, o.Requests)
			}
			if again.TokensIn != first.TokensIn || again.TokensOut != first.TokensOut || again.CachedTokens != first.TokensIn+first.TokensOut {
				t.Errorf("cached replies charged %d+%d tokens (%d cached), live ones %d+%d", again.TokensIn, again.TokensOut,
					again.CachedTokens, first.TokensIn, first.TokensOut)
			}
			if again.Score != first.Score {
				t.Errorf("the replayed run scored %v, the live one %v", again.Score, first.Score)
			}
			others := map[string]Run{"another task": e.run(t, head.Hash, b, 0, false), "another repeat": e.run(t, head.Hash, a, 1, false),
				"a forced run": e.run(t, twin, a, 0, true)}
			for name, r := range others {
				if r.CachedReplies != 0 || r.Requests == 0 {
					t.Errorf("%s: %d replies from the cache, %d requests upstream; want none and some", name, r.CachedReplies, r.Requests)
				}
			}
		})
	}
}

// A change the model never sees (a comment in a tool's code) sends the
// model only what the incumbent sent: it is rejected as not activated after
// its first train batch, at zero upstream requests.
func TestNeverSeesRejectedAtZeroRequests(t *testing.T) {
	slow(t)
	t.Parallel()
	g, upstream := applyToolEdit(t, "\n// A note the model never reads.\n")
	t.Logf("%s after %s: %d runs, %d requests: %s", g.Decision, g.Stopped, g.Runs, g.Requests, g.Reason)
	if g.Decision != "reject" || !strings.Contains(g.Reason, "not activated") || g.Requests != 0 || upstream != 0 {
		t.Errorf("decision %s, %d requests (%d upstream): %s", g.Decision, g.Requests, upstream, g.Reason)
	}
	if g.Runs == 0 || g.Runs >= 6 {
		t.Errorf("%d agent runs; want the first train batch", g.Runs)
	}
}

// With the screen off the candidate runs on every task, as before: the
// same change costs every run and the upstream every request.
func TestScreenOffEvaluatesInFull(t *testing.T) {
	slow(t)
	t.Parallel()
	e := newEnv(t, repeat(coinModel("never"), 1<<16)...)
	e.a.Screen = "off"
	for i := range 6 {
		addExitTask(t, e.suite, "train", fmt.Sprintf("gate-t%02d", i))
	}
	for i := range 12 {
		addExitTask(t, e.suite, "holdout", fmt.Sprintf("gate-h%02d", i))
	}
	dir := copyHarness(t)
	if err := e.a.Init(ctx(), dir); err != nil {
		t.Fatal(err)
	}
	n0 := len(e.srv.Requests())
	tool := readHarness(t, dir, "tools/list_dir.go")
	diff := makeDiff(t, dir, map[string]string{"tools/list_dir.go": tool + "\n// A note the model never reads.\n"})
	if err := e.a.Apply(ctx(), e.candidate(t, "tools/list_dir.go", diff)); err != nil {
		t.Fatal(err)
	}
	g := e.last(t)
	if g.Decision != "reject" || g.Runs != 6 || g.Requests == 0 || len(e.srv.Requests()) == n0 {
		t.Errorf("%s after %s: %d runs, %d requests: %s", g.Decision, g.Stopped, g.Runs, g.Requests, g.Reason)
	}
	if v, _ := e.a.meta("screen"); v != "off" {
		t.Errorf("the ledger froze screen %q", v)
	}
}

// TestEarlyRejection is the early-rejection rule as a table, without a sandbox.
func TestEarlyRejection(t *testing.T) {
	third := func(n int) []float64 { // the incumbent passes every third task
		s := make([]float64, n)
		for i := range s {
			s[i] = float64(b2i(i%3 == 0))
		}
		return s
	}
	train, hold := third(146), third(94)
	moved := func(pre []float64, n, fix, brk int) []float64 { // the first n units, fix fixed and brk broken
		post := slices.Clone(pre[:n])
		for i := range post {
			switch {
			case post[i] == 0 && fix > 0:
				post[i], fix = 1, fix-1
			case post[i] == 1 && brk > 0:
				post[i], brk = 0, brk-1
			}
		}
		return post
	}
	for _, tt := range []struct {
		name                string
		trainPost, holdPost []float64
		hold                []float64
		want                string // "" goes on; else a part of the reason
	}{
		{"nothing seen goes on", nil, nil, hold, ""},
		{"a strong start goes on", moved(train, 19, 8, 1), nil, hold, ""},
		{"a holdout already perfect cannot improve", nil, nil, slices.Repeat([]float64{1}, 94), "cannot pass at best"},
		{"train lost for good", moved(train, 140, 0, 40), nil, hold, "cannot pass at best"},
		{"a neutral half of train (as often fixed and broken as a redraw) is futile", moved(train, 73, 16, 16), nil, hold, "futile"},
		{"a clear gain on train, lost on half of holdout", moved(train, 146, 60, 5), moved(hold, 47, 3, 12), hold, "futile"},
		{"a clear gain on both goes on", moved(train, 146, 60, 5), moved(hold, 47, 20, 1), hold, ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got := Screen(train, tt.trainPost, tt.hold, tt.holdPost, 0.05, 7)
			if again := Screen(train, tt.trainPost, tt.hold, tt.holdPost, 0.05, 7); again != got {
				t.Errorf("the same seed decided twice differently: %q, %q", got, again)
			}
			if tt.want == "" && got != "" || tt.want != "" && !strings.Contains(got, tt.want) {
				t.Errorf("Screen = %q, want %q", got, tt.want)
			}
		})
	}
}

// On the gate suite's scale (6 train, 12 holdout tasks, the incumbent
// failing half of each), a candidate that fixes every task and breaks none
// is never screened out, whatever the seed: its order and the screen's
// draws. What this costs in power on real suites is ratchet plan's to say.
func TestScreenKeepsACandidateThatFixesEverything(t *testing.T) {
	t.Parallel()
	half := func(n int) []float64 {
		s := make([]float64, n)
		for i := range s {
			s[i] = float64(i % 2)
		}
		return s
	}
	ones := func(n int) []float64 { return slices.Repeat([]float64{1}, n) }
	for seed := range uint64(500) {
		train, hold := half(6), half(12)
		rng := rand.New(rand.NewPCG(seed, 1))
		rng.Shuffle(len(train), func(i, j int) { train[i], train[j] = train[j], train[i] })
		rng.Shuffle(len(hold), func(i, j int) { hold[i], hold[j] = hold[j], hold[i] })
		// after each batch, as compare asks: train's two, then holdout's first two
		for _, seen := range [][2]int{{4, 0}, {6, 0}, {6, 4}, {6, 8}} {
			if why := Screen(train, ones(seen[0]), hold, ones(seen[1]), 0.05, seed); why != "" {
				t.Fatalf("seed %d, order %v %v, after %v: %s", seed, train, hold, seen, why)
			}
		}
	}
}

// A streamed reply is recorded whole and replayed as the same bytes, for
// both wire formats, and charged its recorded usage; the second occurrence
// of a request in a run is its own record, not the first's.
func TestReplyCacheReplaysStreams(t *testing.T) {
	for _, api := range []string{"openai", "anthropic"} {
		t.Run(api, func(t *testing.T) {
			e := newEnv(t)
			srv, err := fakemodel.Start(fakemodel.Step{Text: "first", In: 11, Out: 3}, fakemodel.Step{Text: "second", In: 13, Out: 4})
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(srv.Close)
			body := `{"messages":[{"role":"user","content":"hi"}],"stream":true,"max_tokens":50}`
			run := func() (*Proxy, []string, *replies) {
				cache := &replies{db: e.a.db, run: "r", prefix: "m\x00task\x000\x00", seen: map[string]int{},
					harnesses: [2]string{"h", "h"}}
				p, c := serveProxy(t, ProxyConfig{API: api, Upstream: srv.URL, Model: "m", Key: secret, Budget: 1000, Replies: cache})
				var got []string
				for range 2 {
					resp, out := post(t, c, chatPath(api), body)
					if resp.StatusCode != 200 || !strings.Contains(resp.Header.Get("Content-Type"), "text/event-stream") {
						t.Fatalf("status %d, %s: %s", resp.StatusCode, resp.Header.Get("Content-Type"), out)
					}
					got = append(got, out)
				}
				return p, got, cache
			}
			e.a.db.Exec(`INSERT INTO runs(id, harness_hash) VALUES('r', 'h')`) // the run of harness h the proxy serves
			live, liveOut, _ := run()
			replay, replayOut, cache := run()
			if len(srv.Requests()) != 2 || cache.sent != 0 || cache.served != 2 {
				t.Errorf("upstream saw %d requests, the replay sent %d and served %d", len(srv.Requests()), cache.sent, cache.served)
			}
			if liveOut[0] == liveOut[1] || replayOut[0] != liveOut[0] || replayOut[1] != liveOut[1] {
				t.Errorf("live %q; replayed %q", liveOut, replayOut)
			}
			li, lo := live.Used()
			ri, ro := replay.Used()
			if li == 0 || li != ri || lo != ro {
				t.Errorf("live charged %d+%d, the replay %d+%d", li, lo, ri, ro)
			}
		})
	}
}

// A candidate that does not build is rejected at the validity step, before
// any task runs: no agent run, no model request.
func TestInvalidCandidateRejectedBeforeAnyRun(t *testing.T) {
	slow(t)
	t.Parallel()
	g, upstream := applyToolEdit(t, "\nfunc broken() { return 1 }\n")
	if g.Decision != "reject" || !strings.HasPrefix(g.Reason, "invalid: ") || g.Runs != 0 || g.Requests != 0 ||
		upstream != 0 {
		t.Errorf("%s, %d runs, %d requests (%d upstream): %s", g.Decision, g.Runs, g.Requests, upstream, g.Reason)
	}
}

// applyToolEdit applies, on a fresh gate suite, a candidate that appends
// suffix to tools/list_dir.go, and returns its generation and the requests
// the upstream saw during the apply.
func applyToolEdit(t *testing.T, suffix string) (Gen, int) {
	t.Helper()
	e, dir := gateSuite(t, coinModel("never"), addExitTask)
	n0 := len(e.srv.Requests())
	tool := readHarness(t, dir, "tools/list_dir.go")
	diff := makeDiff(t, dir, map[string]string{"tools/list_dir.go": tool + suffix})
	if err := e.a.Apply(ctx(), e.candidate(t, "tools/list_dir.go", diff)); err != nil {
		t.Fatal(err)
	}
	return e.last(t), len(e.srv.Requests()) - n0
}
