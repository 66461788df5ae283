package plan

import (
	"math"
	"testing"
)

// fewScreens is the screen's trials in the tests of Plan's other figures:
// the screen's rows are most of a plan's time, those tests read none of
// them, and each figure draws from its own stream, so the others do not
// change. TestScreenOnlyRejects checks the screen.
const fewScreens = 10

// The screen only adds rejections: on the same draws, every screened accept
// is an accept of the full evaluation. At the pass rates of the anchor's
// BenchmarkScreenedSession (train 0.32, holdout 0.39, 146 and 94 tasks) it
// also logs what docs/BENCHMARKS.md compares with that benchmark: runs per
// decision and accepts, screened and in full, for a neutral candidate and
// for one that raises every rate from 0.3 to 0.6.
func TestScreenOnlyRejects(t *testing.T) {
	t.Parallel()
	su := Suite{Train: assumed(0.32, 146), Holdout: assumed(0.39, 94), K: 1, Alpha: 0.05}
	sim := newSimulator(5, 0)
	for _, delta := range []float64{0, math.Log(0.6/0.4) - math.Log(0.3/0.7)} {
		tl := sim.screen(su, delta, 150)
		t.Logf("logit step %.2f: accepted %d screened, %d in full, of %d; runs per decision %.1f screened, %.1f in full; "+
			"per rejection %.1f, %.1f", delta, tl.Accepts, tl.FullAccepts, tl.Trials, float64(tl.Runs)/float64(tl.Trials),
			float64(tl.FullRuns)/float64(tl.Trials), float64(tl.RejectRuns)/float64(max(1, tl.Trials-tl.Accepts)),
			float64(tl.FullRejectRuns)/float64(max(1, tl.Trials-tl.Accepts)))
		if tl.Accepts > tl.FullAccepts {
			t.Errorf("the screen accepted %d, the full evaluation %d on the same draws", tl.Accepts, tl.FullAccepts)
		}
		if delta == 0 && tl.RejectRuns*2 > tl.FullRejectRuns {
			t.Errorf("a neutral candidate's rejection cost %d runs screened, %d in full: the screen saves too little",
				tl.RejectRuns, tl.FullRejectRuns)
		}
	}
}

// The screen's full decision is the gate's, over groups: a holdout of 20
// tasks in 2 groups can never pass the sign test at alpha 0.05 (p is at
// least 0.25), however much each task gains, so neither the full nor the
// screened evaluation accepts. Deciding over tasks, as the screen's rows
// once did, accepted most of these candidates.
func TestScreenDecidesOverGroups(t *testing.T) {
	t.Parallel()
	groups := make([]int, 20)
	for i := range groups {
		groups[i] = i % 2
	}
	su := Suite{Train: assumed(0.3, 20), Holdout: assumed(0.3, 20), HoldoutGroups: groups, K: 1, Alpha: 0.05}
	tl := newSimulator(3, 0).screen(su, 3, 100)
	if tl.FullAccepts != 0 || tl.Accepts != 0 {
		t.Errorf("2 holdout groups: %d accepted in full, %d screened, of %d; want none", tl.FullAccepts, tl.Accepts, tl.Trials)
	}
	su.HoldoutGroups = nil // the same tasks, each its own unit: a gain of 3 logits is seen
	if tl := newSimulator(3, 0).screen(su, 3, 100); tl.FullAccepts < 50 {
		t.Errorf("20 independent holdout tasks at +3 logits: %d of %d accepted in full; want most", tl.FullAccepts, tl.Trials)
	}
}

// The screen's order (anchor.TiersQuery): on a suite like agent benchmarks
// (a third of tasks nearly never solved, a third nearly always, the rest
// between), evaluating first the tasks whose survey runs disagree keeps
// more of a +10-point gain's accepts than the random order, on the same
// suite, at about the same runs per neutral decision.
func TestSurveyOrderKeepsMoreGains(t *testing.T) {
	t.Parallel()
	rates := func(n int) []float64 {
		out := make([]float64, n)
		for i := range out {
			out[i] = []float64{0.03, 0.97, 0.2 + 0.6*float64(i%7)/6}[i%3]
		}
		return out
	}
	su := Suite{Train: rates(146), Holdout: rates(94), K: 1, Alpha: 0.05, Looks: 2}
	delta, _ := logitShift(su.Holdout, nil, 0.10)
	play := func(survey int) (gain, neutral screenTally) {
		su.Survey, su.SecondCached = survey, survey >= 3
		sim := newSimulator(7, 0)
		return sim.screen(su, delta, 200), sim.screen(su, 0, 200)
	}
	g0, n0 := play(0)
	g3, n3 := play(3)
	t.Logf("+10 points accepted %d (random order) and %d (survey of 3) of 200; runs per neutral decision %.1f and %.1f",
		g0.Accepts, g3.Accepts, float64(n0.Runs)/200, float64(n3.Runs)/200)
	if g3.Accepts < g0.Accepts+10 {
		t.Errorf("the survey's order accepted %d of 200 +10-point candidates, the random order %d", g3.Accepts, g0.Accepts)
	}
	if n3.Runs*4 > n0.Runs*5 {
		t.Errorf("a neutral decision cost %d runs in the survey's order, %d in the random one", n3.Runs, n0.Runs)
	}
}
