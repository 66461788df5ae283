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
