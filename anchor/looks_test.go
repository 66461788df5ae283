package anchor

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// looksRuns makes runs of n tasks (each its own group) for repeats 0 to
// reps-1, task i scoring score(i, repeat).
func looksRuns(n, reps int, score func(i, r int) float64) []Run {
	var rs []Run
	for i := range n {
		for r := range reps {
			rs = append(rs, Run{TaskID: fmt.Sprintf("t%02d", i), Repeat: r, Score: score(i, r)})
		}
	}
	return rs
}

// TestDecideLooks is the holdout's two looks as a table: what the first look
// accepts, when a second is owed, and what the second decides on all runs.
func TestDecideLooks(t *testing.T) {
	zero := func(i, r int) float64 { return 0 }
	fixes := func(n int) func(i, r int) float64 { // the first n tasks solved on every repeat
		return func(i, r int) float64 { return float64(min(1, max(0, n-i))) }
	}
	tests := []struct {
		name        string
		tasks, reps int
		post        func(i, r int) float64
		looks       int
		again       bool
		look        int
		reject      string // "" accepts; else a part of the reason
	}{
		{"one look is the sign test at alpha", 10, 1, fixes(5), 1, false, 0, ""},
		{"seven of seven pass the first look", 10, 1, fixes(7), 2, false, 1, ""},
		{"five of five are promising: a second look is owed", 10, 1, fixes(5), 2, true, 1, "p = 0.031 > 0.01"},
		{"and pass it when the repeats agree", 10, 3, fixes(5), 2, false, 2, ""},
		{"a first look with nothing fixed is not promising", 10, 1, zero, 2, false, 1, "did not improve"},
		{"two of two are p = 0.25: promising", 10, 1, fixes(2), 2, true, 1, "p = 0.250"},
		{"but not enough at the second look", 10, 3, fixes(2), 2, false, 2, "second look, 3 repeats: holdout"},
		{"repeats that disagree decide on the means", 10, 3, func(i, r int) float64 {
			return float64(b2i(i < 5 && (r == 0 || i < 3))) // five fixed at first, three of them hold
		}, 2, false, 2, "p = 0.031 ≤"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			pre, post := looksRuns(tt.tasks, tt.reps, zero), looksRuns(tt.tasks, tt.reps, tt.post)
			e, why, again := Decide("holdout", pre, post, 0.05, 1, tt.looks)
			if again != tt.again || e.Look != tt.look {
				t.Errorf("again %v at look %d, want %v at %d (%s)", again, e.Look, tt.again, tt.look, why)
			}
			switch {
			case tt.reject == "" && why != "":
				t.Errorf("rejected (%s), want an accept", why)
			case strings.HasSuffix(tt.reject, "≤"):
				if why != "" || fmt.Sprintf("p = %.3f ≤", e.P) != tt.reject {
					t.Errorf("%q, p = %.3f; want an accept with %s", why, e.P, tt.reject)
				}
			case tt.reject != "" && !strings.Contains(why, tt.reject):
				t.Errorf("reason %q, want one holding %q", why, tt.reject)
			}
		})
	}
	if _, why, again := Decide("train", looksRuns(4, 1, zero), looksRuns(4, 1, fixes(1)), 0.05, 1, 2); why != "" || again {
		t.Errorf("train is judged on its means, once: %q, again %v", why, again)
	}
}

// The A/A game through Decide: candidates drawn from the incumbent's own
// rates, on 41 groups whose rates are spread as agent benchmarks' are, are
// accepted at most alpha of the time over both looks; a candidate that
// truly helps is accepted more often than by one look at alpha.
func TestDecideHoldsAlphaOverBothLooks(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 5))
	rates := make([]float64, 41)
	for i := range rates {
		rates[i] = []float64{0.02, 0.98, 0.1 + 0.8*rng.Float64()}[rng.IntN(3)]
	}
	play := func(gain float64, looks int) float64 {
		const trials = 4000
		accepts := 0
		for range trials {
			draw := func(i, r int, lift float64) float64 { return float64(b2i(rng.Float64() < min(1, rates[i]+lift))) }
			pre := looksRuns(len(rates), 3, func(i, r int) float64 { return draw(i, r, 0) })
			post := looksRuns(len(rates), 3, func(i, r int) float64 { return draw(i, r, gain) })
			if looks == 1 { // one look sees the first repeat only
				later := func(r Run) bool { return r.Repeat > 0 }
				pre, post = deleted(pre, later), deleted(post, later)
			}
			_, why, _ := Decide("holdout", pre, post, 0.05, 1, looks)
			accepts += b2i(why == "")
		}
		return float64(accepts) / trials
	}
	aa := play(0, 2)
	t.Logf("neutral candidates: two looks accept %.3f", aa)
	if aa > 0.05 {
		t.Errorf("neutral candidates accepted %.3f of the time over two looks, above alpha 0.05", aa)
	}
	one, two := play(0.08, 1), play(0.08, 2)
	t.Logf("a +0.08 solve-rate gain: one look %.3f, two looks %.3f", one, two)
	if two <= one+0.05 {
		t.Errorf("two looks accept a +0.08 gain %.3f of the time, one look %.3f: the second look buys nothing", two, one)
	}
}

func deleted(runs []Run, drop func(Run) bool) []Run {
	var out []Run
	for _, r := range runs {
		if !drop(r) {
			out = append(out, r)
		}
	}
	return out
}

// Through real applies and the sandbox, on a ledger of two looks: a
// candidate that fixes all five holdout tasks has p = 1/32, above the first
// look's alpha/5; it is promising, so both harnesses run every holdout task
// twice more and the candidate is accepted at the second look. A candidate
// that fixes nothing gets no second look.
func TestSecondLookThroughApply(t *testing.T) {
	slow(t)
	t.Parallel()
	const helps = "Read sum.go twice."
	e := newEnv(t, repeat(helpsModel(helps, ""), 1<<12)...)
	e.a.Looks = 2
	addExitTask(t, e.suite, "train", "look-t0")
	for i := range 5 {
		addExitTask(t, e.suite, "holdout", fmt.Sprintf("look-h%d", i))
	}
	dir := copyHarness(t)
	if err := e.a.Init(ctx(), dir); err != nil {
		t.Fatal(err)
	}
	repeats := func(hash string) (n int) {
		e.a.db.QueryRow(`SELECT COUNT(*) FROM runs WHERE harness_hash = ? AND split = 'holdout' AND repeat > 0`,
			hash).Scan(&n)
		return n
	}
	prompt := readHarness(t, dir, "system_prompt.md")
	neutral := makeDiff(t, dir, map[string]string{"system_prompt.md": prompt + "Be calm.\n"})
	if err := e.a.Apply(ctx(), e.candidate(t, "system_prompt.md", neutral)); err != nil {
		t.Fatal(err)
	}
	if g := e.last(t); g.Decision != "reject" || repeats(g.Hash) != 0 {
		t.Errorf("neutral: %s %s, with %d holdout runs past the first repeat", g.Decision, g.Reason, repeats(g.Hash))
	}
	helpful := makeDiff(t, dir, map[string]string{"system_prompt.md": prompt + helps + "\n"})
	if err := e.a.Apply(ctx(), e.candidate(t, "system_prompt.md", helpful)); err != nil {
		t.Fatal(err)
	}
	g := e.last(t)
	if g.Decision != "accept" || !strings.Contains(g.Reason, "5 fixed, 0 broken, p = 0.031 ≤ 0.04 (second look)") {
		t.Fatalf("helpful: %s %s; want an accept at the second look", g.Decision, g.Reason)
	}
	parent := must(e.a.gens(`WHERE gen = ?`, *g.Parent))[0]
	if n, m := repeats(g.Hash), repeats(parent.Hash); n != 10 || m != 10 {
		t.Errorf("the second look ran %d of the candidate's and %d of the incumbent's holdout repeats, want 10 each", n, m)
	}
	if g.Stopped != "holdout's second look" {
		t.Errorf("the record says it stopped at %q", g.Stopped)
	}
	if lines := strings.Count(g.RunIDs, "holdout post "); lines != 15 {
		t.Errorf("the record names %d of the candidate's holdout runs, want 15 (5 tasks, 3 repeats)", lines)
	}
}

// A ledger initialized before the second look existed keeps its single
// look: opening it records looks = 1 (schema.sql's upgrade), and asking for
// two is the frozen-setting error. A ledger not yet initialized gets no
// value, so its init records the one it is given.
func TestLedgerFromBeforeTheSecondLookKeepsOne(t *testing.T) {
	e := newEnv(t)
	if v, _ := e.a.meta("looks"); v != "" {
		t.Fatalf("an empty ledger has looks %q before init", v)
	}
	if _, err := e.a.db.Exec(`INSERT INTO meta VALUES('model', ?), ('repeats', '1'), ('alpha', '0.05')`,
		e.a.Model()); err != nil {
		t.Fatal(err)
	}
	e.a.db.Close()
	if err := e.a.open(); err != nil {
		t.Fatal(err)
	}
	if v, _ := e.a.meta("looks"); v != "1" {
		t.Fatalf("a ledger from before the second look opened with looks %q, want 1", v)
	}
	t.Setenv("MODEL_API", "openai")
	t.Setenv("MODEL_URL", e.srv.URL)
	t.Setenv("MODEL_NAME", "scripted")
	t.Setenv("MODEL_OPTIONS", "")
	var out strings.Builder
	err := run(ctx(), []string{"eval", "--home", e.a.Home, "--tasks", e.suite, "--split", "train", "--looks", "2"}, &out)
	if err == nil || !strings.Contains(err.Error(), "froze --looks 1 at init, not 2") {
		t.Errorf("two looks asked of a one-look ledger: %v", err)
	}
}
