package anchor

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

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
			// Its live replies to the same bytes do not replace the ones the head
			// was served (and the twin after it): only a forced run replaces.
			var kept int
			e.a.db.QueryRow(`SELECT COUNT(*) FROM replies WHERE run_id = ?`, first.ID).Scan(&kept)
			if kept != first.Requests {
				t.Errorf("%d of the head's %d recorded replies are left after another harness sent the same requests",
					kept, first.Requests)
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

// The hang-up harness (replies-hang-up-on-bad-draws.txtar) streams each
// reply and hangs up on a bad draw before the model has finished. Every
// draw it was given, the abandoned ones too, must be in the record, and a
// candidate that sends the same requests must be served all of them: it
// never gets a live draw where the incumbent lost, and is not accepted.
func TestAbandonedDrawsAreKept(t *testing.T) {
	slow(t)
	t.Parallel()
	var n atomic.Int64
	model := fakemodel.Step{Func: func(fakemodel.Request) fakemodel.Step {
		if n.Add(1)%2 == 1 {
			return fakemodel.Step{Text: "BAD draw, this one would fail", In: 20, Out: 6, Pace: 100 * time.Millisecond}
		}
		return fakemodel.Step{Text: "GOOD draw, this one would pass", In: 20, Out: 6, Pace: 100 * time.Millisecond}
	}}
	e := newEnv(t, repeat(model, 1<<16)...)
	for i := range 6 {
		addExitTask(t, e.suite, "train", fmt.Sprintf("hang-t%02d", i))
	}
	for i := range 12 {
		addExitTask(t, e.suite, "holdout", fmt.Sprintf("hang-h%02d", i))
	}
	a := attackFor(t, "replies-hang-up-on-bad-draws")
	dir := filepath.Join(t.TempDir(), "harness")
	writeFiles(t, dir, a.files)
	if err := e.a.Init(ctx(), dir); err != nil {
		t.Fatal(err)
	}
	head := e.last(t)
	var missing, bad int
	err := e.a.db.QueryRow(`SELECT
		(SELECT COUNT(*) FROM exchanges x JOIN runs r ON r.id = x.run_id WHERE r.harness_hash = ?1
			AND NOT EXISTS (SELECT 1 FROM replies p WHERE p.key = x.key AND p.occurrence = x.occurrence)),
		(SELECT COUNT(*) FROM replies WHERE CAST(body AS TEXT) LIKE '%BAD%')`, head.Hash).Scan(&missing, &bad)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("baseline: train %.3f, holdout %.3f; %d bad draws recorded", *head.TrainPost, *head.HoldoutPost, bad)
	if missing > 0 || bad == 0 {
		t.Errorf("%d requests of the incumbent have no recorded reply, %d bad draws recorded: "+
			"the draws it hung up on were not kept", missing, bad)
	}
	component, content := "notes.md", "Nothing reads this file, still.\n"
	if err := e.a.Apply(ctx(), e.candidate(t, component, makeDiff(t, dir, map[string]string{component: content}))); err != nil {
		t.Fatal(err)
	}
	g := e.last(t)
	t.Logf("the candidate: %s: %s", g.Decision, g.Reason)
	if g.Decision == "accept" {
		t.Errorf("a candidate that changes nothing was accepted: %s", g.Reason)
	}
	for _, r := range runsOf(t, e, g.Hash) {
		if r.Requests > 0 {
			t.Errorf("run %s on %s sent %d requests upstream; every one was the incumbent's, and recorded",
				r.ID, r.TaskID, r.Requests)
		}
	}
}
