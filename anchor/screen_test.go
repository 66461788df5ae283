package anchor

import (
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

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
		{"a holdout already perfect cannot improve", nil, nil, slices.Repeat([]float64{1}, 94), "cannot pass even if every unit left scored 1"},
		{"train lost for good", moved(train, 140, 0, 40), nil, hold, "cannot pass even if every unit left scored 1"},
		{"a neutral half of train (as often fixed and broken as a redraw) is futile", moved(train, 73, 16, 16), nil, hold, "futile"},
		{"a clear gain on train, lost on half of holdout", moved(train, 146, 60, 5), moved(hold, 47, 3, 12), hold, "futile"},
		{"a clear gain on both goes on", moved(train, 146, 60, 5), moved(hold, 47, 20, 1), hold, ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got := Screen(train, tt.trainPost, tt.hold, tt.holdPost, 0.05, 1, 7)
			if again := Screen(train, tt.trainPost, tt.hold, tt.holdPost, 0.05, 1, 7); again != got {
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
			for looks := 1; looks <= 2; looks++ {
				if why := Screen(train, ones(seen[0]), hold, ones(seen[1]), 0.05, looks, seed); why != "" {
					t.Fatalf("seed %d, %d looks, order %v %v, after %v: %s", seed, looks, train, hold, seen, why)
				}
			}
		}
	}
}

// The screen's order: a task whose runs in the ledger disagree comes
// first, one the ledger ran fewer than three times next, one three or
// more runs agree on last; the candidate's own runs, runs the machine
// failed (infra) and the other split's runs say nothing.
func TestTiersRankTasksByTheLedgersRuns(t *testing.T) {
	e := newEnv(t)
	runs := []struct {
		harness, task, split string
		outcome              Outcome
		score                float64
	}{
		{"h0", "mixed", "train", OutcomeOK, 1}, {"h1", "mixed", "train", OutcomeOK, 0},
		{"h0", "once", "train", OutcomeOK, 1},
		{"h0", "agreed", "train", OutcomeOK, 0.5}, {"h1", "agreed", "train", OutcomeOK, 0.5},
		{"h0", "agreed", "train", OutcomeOK, 0.5},
		{"h0", "cand-only", "train", OutcomeOK, 1}, {"h0", "cand-only", "train", OutcomeOK, 1},
		{"h1", "cand-only", "train", OutcomeOK, 1}, {"cand", "cand-only", "train", OutcomeOK, 0},
		{"h0", "infra", "train", OutcomeOK, 1}, {"h1", "infra", "train", OutcomeInfra, 0},
		{"h0", "split", "train", OutcomeOK, 1}, {"h1", "split", "holdout", OutcomeOK, 0},
	}
	for i, r := range runs {
		if _, err := e.a.db.Exec(`INSERT INTO runs(id, harness_hash, task_id, split, outcome, score)
			VALUES(?, ?, ?, ?, ?, ?)`, fmt.Sprint(i), r.harness, r.task, r.split, r.outcome, r.score); err != nil {
			t.Fatal(err)
		}
	}
	got, err := e.a.tiers("train", "cand")
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]int{"mixed": 0, "once": 1, "agreed": 2, "cand-only": 2, "infra": 1, "split": 1}
	if !maps.Equal(got, want) {
		t.Errorf("tiers %v, want %v", got, want)
	}
}
