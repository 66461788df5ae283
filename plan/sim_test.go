package plan

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"ratchet/anchor"
)

func logFactorial(n int) float64 {
	v, _ := math.Lgamma(float64(n + 1))
	return v
}

// exactAccept is the gate's acceptance probability at K = 1 with every task
// at incumbent rate p and candidate rate q, summed over the trinomial of
// fixed, broken and unchanged tasks: independent of the simulator.
func exactAccept(train, hold int, p, q, alpha float64) float64 {
	a, b := q*(1-p), p*(1-q) // fixed, broken
	c := 1 - a - b
	crit := newCriticals(alpha)
	side := func(n int, sign bool) float64 {
		sum := 0.0
		for f := 0; f <= n; f++ {
			for br := 0; br+f <= n; br++ {
				if f <= br || sign && f < crit.at(f+br) {
					continue
				}
				lp := logFactorial(n) - logFactorial(f) - logFactorial(br) - logFactorial(n-f-br) +
					float64(f)*math.Log(a) + float64(br)*math.Log(b) + float64(n-f-br)*math.Log(c)
				sum += math.Exp(lp)
			}
		}
		return sum
	}
	return side(train, false) * side(hold, true)
}

func TestSimulatedPowerMatchesExact(t *testing.T) {
	const trials = 4000
	sim := newSimulator(7, trials)
	for _, c := range []struct {
		train, hold int
		q           float64
	}{
		{20, 30, 0.5}, // A/A
		{20, 30, 0.7}, // +20 points on a coin-flip suite
		{50, 30, 0.7},
		{20, 80, 0.7},
		{20, 30, 0.6},
	} {
		su := Suite{Train: assumed(0.5, c.train), Holdout: assumed(0.5, c.hold), K: 1, Alpha: 0.05}
		got, _ := sim.power(su, c.q-0.5)
		want := exactAccept(c.train, c.hold, 0.5, c.q, 0.05)
		se := math.Sqrt(want*(1-want)/trials) + 1e-3
		if math.Abs(got-want) > 4*se {
			t.Errorf("train %d, holdout %d, 0.5 -> %g: simulated power %.4f, exact %.4f", c.train, c.hold, c.q, got, want)
		}
		t.Logf("train %d, holdout %d, 0.5 -> %g: simulated %.4f, exact %.4f", c.train, c.hold, c.q, got, want)
	}
}

func TestPowerRisesWithGainAndSize(t *testing.T) {
	sim := newSimulator(1, 1000)
	su := Suite{Train: assumed(0.5, 40), Holdout: []float64{0.25, 0.75, 0.5, 0.9, 0.1, 0.75}, K: 1, Alpha: 0.05}
	// Common random numbers: power never falls as the gain grows.
	last := -1.0
	for _, g := range []float64{0, 0.02, 0.05, 0.1, 0.15, 0.2, 0.3} {
		p, ok := sim.power(withHoldout(su, 30), g)
		if !ok || p < last {
			t.Errorf("gain %g: power %g after %g", g, p, last)
		}
		last = p
	}
	last = -1
	for _, n := range []int{6, 15, 30, 60, 120, 240} {
		p, _ := sim.power(withHoldout(su, n), 0.2)
		if p < last-0.02 {
			t.Errorf("holdout %d: power %g after %g", n, p, last)
		}
		last = p
	}
	if last < 0.8 {
		t.Errorf("+20 points on 240 holdout tasks: power %g, want at least 0.8", last)
	}
	// With fewer than 5 holdout tasks no p reaches 0.05.
	if p, _ := sim.power(withHoldout(su, 4), 0.3); p != 0 {
		t.Errorf("4 holdout tasks: power %g, want 0", p)
	}
}

func TestFalseAcceptAtMostAlpha(t *testing.T) {
	sim := newSimulator(3, 4000)
	hold := []float64{0.25, 0.75, 0.5, 0.9, 0.1, 0.75, 0.6, 0.3}
	for _, c := range []struct {
		n, k  int
		alpha float64
	}{{30, 1, 0.05}, {30, 3, 0.05}, {60, 1, 0.05}, {30, 1, 0.2}} {
		su := withHoldout(Suite{Train: hold, Holdout: hold, K: c.k, Alpha: c.alpha}, c.n)
		n := sim.accepts(su, 0, 4000)
		rate := float64(n) / 4000
		if rate > c.alpha+3*math.Sqrt(c.alpha*(1-c.alpha)/4000) {
			t.Errorf("holdout %d, K %d, alpha %g: A/A false-accept rate %.4f", c.n, c.k, c.alpha, rate)
		}
		if rate == 0 {
			t.Errorf("holdout %d, K %d: no A/A accept at all in 4000 trials: the game is not being played", c.n, c.k)
		}
	}
}

func TestSearches(t *testing.T) {
	t.Parallel()
	sim := newSimulator(5, 1000)
	su := Suite{Train: assumed(0.5, 20), Holdout: assumed(0.5, 30), K: 1, Alpha: 0.05}
	d, ok := sim.mde(su, 0.8)
	if !ok {
		t.Fatal("no detectable gain on a 30-task coin-flip suite")
	}
	if p, _ := sim.power(su, d); p < 0.8 {
		t.Errorf("power at the MDE %g is %g", d, p)
	}
	if p, _ := sim.power(su, d-0.01); p >= 0.8 {
		t.Errorf("power one point below the MDE %g is %g", d, p)
	}
	n, ok := sim.holdoutNeeded(su, 0.2, 0.8, maxHoldout)
	if !ok {
		t.Fatal("+20 points: no holdout size found")
	}
	if p, _ := sim.power(grown(su, n), 0.2); p < 0.8 {
		t.Errorf("+20 points at the %d holdout tasks found: power %g", n, p)
	}
	if p, _ := sim.power(grown(su, n*3/4), 0.2); p >= 0.8 {
		t.Errorf("+20 points at 3/4 of the %d holdout tasks found: power %g", n, p)
	}
	if g := grown(su, 60); len(g.Train) != 40 || len(g.Holdout) != 60 {
		t.Errorf("grown to 60 holdout tasks: %d train, %d holdout; want 40, 60", len(g.Train), len(g.Holdout))
	}
	k, ok := sim.repeatsNeeded(su, 0.2, 0.8, maxRepeats)
	if !ok || k < 2 {
		t.Errorf("+20 points at 30 holdout tasks: K = %d (%v), want more than 1", k, ok)
	}
	if _, ok := sim.repeatsNeeded(withHoldout(su, 3), 0.2, 0.8, maxRepeats); ok {
		t.Error("3 holdout tasks found a K: the sign test cannot reach 0.05 with 3 tasks")
	}
	for _, c := range []struct {
		limit, want int
		ok          bool
	}{{100, 37, true}, {37, 37, true}, {36, 0, false}, {1000, 37, true}} {
		got, ok := smallest(1, c.limit, func(x int) bool { return x >= 37 })
		if got != c.want || ok != c.ok {
			t.Errorf("smallest up to %d: %d %v, want %d %v", c.limit, got, ok, c.want, c.ok)
		}
	}
}

func TestGroupedAndRepeatedGroups(t *testing.T) {
	if got := grouped([]float64{1, 0, 0.5, 1}, []int{0, 0, 1, 1}); len(got) != 2 || got[0] != 0.5 || got[1] != 0.75 {
		t.Errorf("grouped = %v, want [0.5 0.75]", got)
	}
	if got := grouped([]float64{1, 0}, nil); len(got) != 2 {
		t.Errorf("ungrouped = %v", got)
	}
	got := repeatedGroups([]int{0, 0, 1}, 7)
	want := []int{0, 0, 1, 2, 2, 3, 4}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("repeatedGroups = %v, want %v", got, want)
		}
	}
}

// The gate counts groups: twelve holdout tasks in three groups can never
// reach p <= 0.05 (five changed groups are the fewest that can), whatever
// the gain, where the same tasks ungrouped can.
func TestPlanCountsGroups(t *testing.T) {
	t.Parallel()
	names := func(n, size int) (g []string) {
		for i := range n {
			g = append(g, fmt.Sprintf("kind%d", i/size))
		}
		return g
	}
	c := Config{P: 0.5, Train: 12, Holdout: 12, Trials: 300, AA: 500, Gains: []float64{0.3}, ScreenTrials: fewScreens}
	free, err := Plan(context.Background(), c)
	if err != nil {
		t.Fatal(err)
	}
	c.TrainGroups, c.HoldoutGroups = names(12, 2), names(12, 4)
	r, err := Plan(context.Background(), c)
	if err != nil {
		t.Fatal(err)
	}
	if r.TrainGroups != 6 || r.HoldoutGroups != 3 || free.HoldoutGroups != 12 {
		t.Errorf("groups: train %d, holdout %d (ungrouped %d)", r.TrainGroups, r.HoldoutGroups, free.HoldoutGroups)
	}
	if *r.Gains[0].Power != 0 || r.AA.Accepts != 0 || *free.Gains[0].Power < 0.1 {
		t.Errorf("+30 points: power %v grouped, %v ungrouped; A/A accepts %d", *r.Gains[0].Power, *free.Gains[0].Power, r.AA.Accepts)
	}
	// What is needed is counted in groups: four tasks a group here, one
	// ungrouped.
	g, f := r.Gains[0], free.Gains[0]
	if g.HoldoutGroupsNeeded == nil || f.HoldoutGroupsNeeded == nil ||
		*g.HoldoutGroupsNeeded != (*g.HoldoutTasksNeeded+3)/4 || *f.HoldoutGroupsNeeded != *f.HoldoutTasksNeeded {
		t.Errorf("needed: grouped %v groups of %v tasks, ungrouped %v of %v", g.HoldoutGroupsNeeded, g.HoldoutTasksNeeded,
			f.HoldoutGroupsNeeded, f.HoldoutTasksNeeded)
	}
	var text bytes.Buffer
	r.WriteText(&text)
	if !strings.Contains(text.String(), "12 holdout tasks in 3 groups") ||
		!strings.Contains(text.String(), fmt.Sprintf("%d (%d tasks)", *g.HoldoutGroupsNeeded, *g.HoldoutTasksNeeded)) {
		t.Errorf("text report:\n%s", text.String())
	}
}

// The plan's holdout decision is the anchor's: on random draws of a grouped
// suite over two looks, holdoutPass accepts exactly when anchor.Decide does,
// and looks twice exactly when Decide decides at the second look.
func TestHoldoutPassIsDecide(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 9))
	su := Suite{K: 1, Alpha: 0.05, Looks: 2}
	groups := make([]int, 24)
	for i := range groups {
		groups[i] = i / 2 // twelve groups of two tasks
	}
	twiceSeen := 0
	for trial := range 3000 {
		pre, post := make([]looked, len(groups)), make([]looked, len(groups))
		var preRuns, postRuns []anchor.Run
		lift := 0.3 * rng.Float64()
		for i := range groups {
			p := rng.Float64()
			for side, l := range []*looked{&pre[i], &post[i]} {
				runs := &preRuns
				if side == 1 {
					runs = &postRuns
				}
				for r := range 3 {
					solved := rng.Float64() < min(1, p+lift*float64(side))
					*runs = append(*runs, anchor.Run{TaskID: fmt.Sprintf("t%02d", i), Group: fmt.Sprint(groups[i]),
						Repeat: r, Score: float64(b2i(solved))})
					if r == 0 {
						l.first += b2i(solved)
					} else {
						l.more += b2i(solved)
					}
				}
			}
		}
		pass, twice := su.holdoutPass(pre, post, nil, groups)
		e, why, _ := anchor.Decide("holdout", preRuns, postRuns, su.Alpha, su.K, su.Looks)
		if pass != (why == "") || twice != (e.Look == 2) {
			t.Fatalf("trial %d: plan passes %v (twice %v), the anchor %q at look %d", trial, pass, twice, why, e.Look)
		}
		twiceSeen += b2i(twice)
	}
	if twiceSeen < 100 {
		t.Errorf("only %d of 3000 trials reached a second look: the test compares too little", twiceSeen)
	}
}
