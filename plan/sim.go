package plan

import (
	"math/rand/v2"
	"slices"

	"ratchet/anchor"
)

// Suite is what the gate is planned for: per-task pass probabilities of the
// incumbent on each split (each strictly between 0 and 1), K repeats per task
// and the sign test's alpha. The gate's units are groups of tasks: task i of
// a split is in group TrainGroups[i] (HoldoutGroups[i]); nil groups make
// every task its own.
type Suite struct {
	Train, Holdout             []float64
	TrainBase, HoldoutBase     []float64 // a task's score when not solved (prior.go); nil: 0
	TrainGroups, HoldoutGroups []int
	// The screen's order (anchor.TiersQuery): a task of a lower tier is
	// evaluated first; nil keeps the random order, or with Survey > 1
	// draws each task's tier from Survey runs of the incumbent, as anchor
	// init --survey leaves them.
	TrainTier, HoldoutTier []int
	Survey                 int
	// The incumbent's second-look runs are in the ledger already (anchor
	// init --survey 3 and more): a second look runs only the candidate's.
	SecondCached bool
	K            int
	Alpha        float64
	Looks        int // the holdout's looks (anchor.Decide): 2, or 1 (0 is 1)
}

// looked is one task's runs in a simulated apply: how many of the first
// look's K runs solved it, and of the 2K more a second look runs.
type looked struct{ first, more int }

// more is how many runs a task gets at a second look: 2K, or none with one look.
func (su Suite) more() int { return 2 * su.K * b2i(su.Looks > 1) }

// firstLook is the scores of the first look's runs, each task at index i
// of runs scored with base[i].
func firstLook(runs []looked, k int, base []float64) []float64 {
	out := make([]float64, len(runs))
	for i, r := range runs {
		out[i] = scoreOf(r.first, k, base, i)
	}
	return out
}

// holdoutPass is the anchor's holdout decision (anchor.Decide) on drawn
// runs, each task at index i of pre and post scored with base[i] and put in
// groups[i]: one look at alpha, or with two the first at alpha/5 and, when
// it is promising, a second on all 3K runs at the rest of alpha. twice says
// the second look was taken.
func (su Suite) holdoutPass(pre, post []looked, base []float64, groups []int) (pass, twice bool) {
	scores := func(runs []looked, all bool) []float64 { // the first look's runs, or all 3K
		if !all {
			return grouped(firstLook(runs, su.K, base), groups)
		}
		out := make([]float64, len(runs))
		for i, r := range runs {
			out[i] = scoreOf(r.first+r.more, 3*su.K, base, i)
		}
		return grouped(out, groups)
	}
	if su.Looks < 2 {
		_, why := anchor.Gate("holdout", scores(pre, false), scores(post, false), su.Alpha)
		return why == "", false
	}
	e, why := anchor.Gate("holdout", scores(pre, false), scores(post, false), su.Alpha/5)
	if why == "" || e.Post <= e.Pre+1e-9 || e.P > anchor.Promising { // as the anchor: risen beyond rounding
		return why == "", false
	}
	_, why = anchor.Gate("holdout", scores(pre, true), scores(post, true), su.Alpha*4/5)
	return why == "", true
}

// scoreOf is a task's score from c solved of k runs at base b.
func scoreOf(c, k int, base []float64, i int) float64 {
	b := 0.0
	if base != nil {
		b = base[i]
	}
	return (float64(c) + float64(k-c)*b) / float64(k)
}

// simulator plays the gate: candidate against incumbent, both drawn from
// their pass probabilities, K Bernoulli repeats per task. Trial t always
// uses the PCG stream (seed, t) and draws in the same order whatever the
// candidate's probabilities, so two gains are compared on the same uniforms
// (common random numbers): a larger gain never turns an accept into a reject.
// The incumbent is drawn afresh in every trial, so a figure averages over what
// the head's own runs could have been; a real head's runs are cached, fixed
// for all its candidates, and a head accepted on luck scores above its rates.
type simulator struct {
	seed   uint64
	trials int
	crit   map[float64]*criticals
}

func newSimulator(seed uint64, trials int) *simulator {
	return &simulator{seed: seed, trials: trials, crit: map[float64]*criticals{}}
}

func (s *simulator) criticals(alpha float64) *criticals {
	if s.crit[alpha] == nil {
		s.crit[alpha] = newCriticals(alpha)
	}
	return s.crit[alpha]
}

// tally counts, over a number of simulated applies, how often each side of
// the gate passed and how often the gate accepted.
type tally struct {
	Trials, TrainUp, HoldoutPass, Accepts int
}

// play simulates trials applies in which every task's pass probability is
// moved by delta on the logit scale (0 is the A/A game). The gate accepts
// when the train mean rises strictly (an empty train split is not checked)
// and the holdout passes: mean strictly up and the sign test over changed
// holdout tasks at p <= alpha.
func (s *simulator) play(su Suite, delta float64, trials int) tally {
	train, hold := shifted(su.Train, delta), shifted(su.Holdout, delta)
	tl := tally{Trials: trials}
	trainPre, trainPost := make([]float64, len(su.Train)), make([]float64, len(su.Train))
	holdPre, holdPost := make([]looked, len(su.Holdout)), make([]looked, len(su.Holdout))
	for t := range trials {
		rng := rand.New(rand.NewPCG(s.seed, uint64(t)))
		draw := func(p float64, k int) int {
			c := 0
			for range k {
				if rng.Float64() < p {
					c++
				}
			}
			return c
		}
		for i, p := range su.Train {
			trainPre[i] = scoreOf(draw(p, su.K), su.K, su.TrainBase, i)
			trainPost[i] = scoreOf(draw(train[i], su.K), su.K, su.TrainBase, i)
		}
		for i, p := range su.Holdout {
			holdPre[i].first, holdPost[i].first = draw(p, su.K), draw(hold[i], su.K)
		}
		for i, p := range su.Holdout { // a second look's runs, drawn always so that gains stay paired
			holdPre[i].more, holdPost[i].more = draw(p, su.more()), draw(hold[i], su.more())
		}
		// The anchor's own gate decides each simulated apply, over groups.
		_, trainWhy := anchor.Gate("train", grouped(trainPre, su.TrainGroups), grouped(trainPost, su.TrainGroups), su.Alpha)
		holdPass, _ := su.holdoutPass(holdPre, holdPost, su.HoldoutBase, su.HoldoutGroups)
		trainUp := trainWhy == "" || len(su.Train) == 0
		tl.TrainUp += b2i(trainUp)
		tl.HoldoutPass += b2i(holdPass)
		tl.Accepts += b2i(trainUp && holdPass)
	}
	return tl
}

// grouped is each group's score, the mean of its tasks' scores, in group
// order, as the anchor's compare pairs them; nil groups return the scores.
func grouped(scores []float64, groups []int) []float64 {
	if groups == nil {
		return scores
	}
	n := slices.Max(groups) + 1
	sum, size := make([]float64, n), make([]float64, n)
	for i, s := range scores {
		sum[groups[i]] += s
		size[groups[i]]++
	}
	for g := range sum {
		sum[g] /= size[g]
	}
	return sum
}

// share is n as a share of the trials.
func (tl tally) share(n int) *float64 {
	x := float64(n) / float64(tl.Trials)
	return &x
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// accepts is how many of trials the gate accepts (see play).
func (s *simulator) accepts(su Suite, delta float64, trials int) int {
	return s.play(su, delta, trials).Accepts
}

// power is the share of trials the gate accepts a candidate whose expected
// holdout mean is gain points above the incumbent's; ok is false when the
// gain is out of reach of any pass probabilities.
func (s *simulator) power(su Suite, gain float64) (float64, bool) {
	delta, ok := logitShift(su.Holdout, su.HoldoutBase, gain)
	if !ok {
		return 0, false
	}
	return float64(s.accepts(su, delta, s.trials)) / float64(s.trials), true
}

// mde is the smallest holdout gain, in points of mean score to 0.001, that
// the gate accepts with at least the target power; ok is false when no
// reachable gain does. Power rises with the gain trial by trial (common
// random numbers), so bisection finds it.
func (s *simulator) mde(su Suite, target float64) (float64, bool) {
	top := 1 - meanScore(su.Holdout, su.HoldoutBase) - 1e-6 // the largest gain any candidate can have
	ok := func(g float64) bool {
		p, reachable := s.power(su, g)
		return reachable && p >= target
	}
	if !ok(top) {
		return 0, false
	}
	lo, hi := 0.0, top
	for hi-lo > 0.0005 {
		mid := (lo + hi) / 2
		if ok(mid) {
			hi = mid
		} else {
			lo = mid
		}
	}
	return hi, true
}

// withHoldout is su with n holdout tasks whose pass probabilities repeat the
// observed ones in order, so the suite keeps its mix of easy and hard tasks.
func withHoldout(su Suite, n int) Suite {
	su.Holdout, su.HoldoutGroups = repeated(su.Holdout, n), repeatedGroups(su.HoldoutGroups, n)
	su.HoldoutBase = repeatedBase(su.HoldoutBase, n)
	return su
}

// grown is su with n holdout tasks and train grown in proportion, as a
// suite grows: the gate needs train up too, and a fixed train split caps
// the power however large the holdout.
func grown(su Suite, n int) Suite {
	if len(su.Train) > 0 {
		m := max(1, (len(su.Train)*n+len(su.Holdout)/2)/len(su.Holdout))
		su.Train, su.TrainGroups = repeated(su.Train, m), repeatedGroups(su.TrainGroups, m)
		su.TrainBase = repeatedBase(su.TrainBase, m)
	}
	return withHoldout(su, n)
}

// repeated is n values that repeat ps in order.
func repeated(ps []float64, n int) []float64 {
	out := make([]float64, n)
	for i := range out {
		out[i] = ps[i%len(ps)]
	}
	return out
}

// repeatedBase is repeated for a split's base scores, which may be nil.
func repeatedBase(base []float64, n int) []float64 {
	if base == nil {
		return nil
	}
	return repeated(base, n)
}

// repeatedGroups is the groups of n tasks that repeat a split in order: each
// copy of the split brings groups of its own, so groups keep their sizes.
func repeatedGroups(groups []int, n int) []int {
	if groups == nil {
		return nil
	}
	out, width := make([]int, n), slices.Max(groups)+1
	for i := range out {
		out[i] = groups[i%len(groups)] + i/len(groups)*width
	}
	return out
}

// holdoutNeeded is the smallest holdout size (up to limit) at which the gate
// accepts a gain with the target power, at this K, with train grown in
// proportion. The gain's
// logit step is fixed from the observed holdout. Power is nearly monotone in
// n (the exact test's discreteness makes a small sawtooth), so the answer is
// found by doubling, then bisection, and can be off by a task or two.
func (s *simulator) holdoutNeeded(su Suite, gain, target float64, limit int) (int, bool) {
	delta, reachable := logitShift(su.Holdout, su.HoldoutBase, gain)
	if !reachable {
		return 0, false
	}
	ok := func(n int) bool {
		return float64(s.accepts(grown(su, n), delta, s.trials)) >= target*float64(s.trials)
	}
	return smallest(1, limit, ok)
}

// repeatsNeeded is the smallest K (up to limit) at which the gate accepts a
// gain with the target power at this suite size. It assumes repeats are
// independent draws, which a deterministic server does not give.
func (s *simulator) repeatsNeeded(su Suite, gain, target float64, limit int) (int, bool) {
	delta, reachable := logitShift(su.Holdout, su.HoldoutBase, gain)
	if !reachable {
		return 0, false
	}
	ok := func(k int) bool {
		su.K = k
		return float64(s.accepts(su, delta, s.trials)) >= target*float64(s.trials)
	}
	return smallest(1, limit, ok)
}

// smallest finds the least x in [lo, limit] with ok(x) for a predicate that
// turns true and stays true: doubling from lo, then bisection.
func smallest(lo, limit int, ok func(int) bool) (int, bool) {
	prev, x := lo-1, lo
	for !ok(x) {
		if x == limit {
			return 0, false
		}
		prev, x = x, min(2*x, limit)
	}
	for x-prev > 1 {
		mid := (prev + x) / 2
		if ok(mid) {
			x = mid
		} else {
			prev = mid
		}
	}
	return x, true
}

// screenTally is what the anchor's screen does over simulated applies:
// accepts and agent runs, screened and in full (ANCHOR_SCREEN=off), on the
// same draws, so a screened accept is always a full one too.
type screenTally struct {
	Trials, Accepts, FullAccepts int
	Runs, FullRuns               int // over all trials
	RejectRuns, FullRejectRuns   int // over the trials the screen rejected
}

// screen plays trials applies as play does and decides each twice: in full
// (train, then holdout when train rose; the gate over groups, as play's) and
// screened as `anchor apply`
// screens, each split in a random order, anchor.Batch tasks at a time,
// stopped when anchor.Screen rejects.
func (s *simulator) screen(su Suite, delta float64, trials int) screenTally {
	train, hold := shifted(su.Train, delta), shifted(su.Holdout, delta)
	tl := screenTally{Trials: trials}
	for t := range trials {
		rng := rand.New(rand.NewPCG(s.seed, uint64(t)))
		draw := func(p float64, k int) int {
			c := 0
			for range k {
				c += b2i(rng.Float64() < p)
			}
			return c
		}
		// drawn in a random order, with more runs a task for a second look;
		// bases and groups (nil: each task its own) follow their tasks
		pairs := func(pre, post, base []float64, groups, tier []int, more int) (a, b []looked, bs []float64, g []int) {
			a, b = make([]looked, len(pre)), make([]looked, len(pre))
			perm := rng.Perm(len(pre))
			if tier == nil && su.Survey > 1 {
				tier = make([]int, len(pre))
				for i, p := range pre {
					c := draw(p, su.Survey)
					tier[i] = b2i(c == 0 || c == su.Survey) * (1 + b2i(su.Survey >= 3)) // as anchor.TiersQuery
				}
			}
			if len(tier) == len(pre) {
				slices.SortStableFunc(perm, func(x, y int) int { return tier[x] - tier[y] })
			}
			for n, i := range perm {
				a[n].first, b[n].first = draw(pre[i], su.K), draw(post[i], su.K)
				if base != nil {
					bs = append(bs, base[i])
				}
				if groups != nil {
					g = append(g, groups[i])
				}
			}
			for n, i := range perm {
				a[n].more, b[n].more = draw(pre[i], more), draw(post[i], more)
			}
			return a, b, bs, g
		}
		tp, tq, tb, tg := pairs(su.Train, train, su.TrainBase, su.TrainGroups, su.TrainTier, 0)
		hp, hq, hb, hg := pairs(su.Holdout, hold, su.HoldoutBase, su.HoldoutGroups, su.HoldoutTier, su.more())
		tps, tqs := firstLook(tp, su.K, tb), firstLook(tq, su.K, tb)
		hps, hqs := firstLook(hp, su.K, hb), firstLook(hq, su.K, hb)
		// The anchor screens on tasks, as its screen sees them, and decides over groups.
		_, trainWhy := anchor.Gate("train", grouped(tps, tg), grouped(tqs, tg), su.Alpha)
		holdPass, twice := su.holdoutPass(hp, hq, hb, hg)
		second := b2i(trainWhy == "" && twice) * (2 - b2i(su.SecondCached)) * su.more() * len(hp)
		full := su.K*(len(tp)+b2i(trainWhy == "")*len(hp)) + second
		through, runs := screened(tps, tqs, hps, hqs, su.Alpha, su.Looks, rng.Uint64())
		runs = su.K*runs + b2i(through)*second
		accept := through && trainWhy == "" && holdPass
		tl.Accepts, tl.FullAccepts = tl.Accepts+b2i(accept), tl.FullAccepts+b2i(trainWhy == "" && holdPass)
		tl.Runs, tl.FullRuns = tl.Runs+runs, tl.FullRuns+full
		if !accept {
			tl.RejectRuns, tl.FullRejectRuns = tl.RejectRuns+runs, tl.FullRejectRuns+full
		}
	}
	return tl
}

// screened is the screen of `anchor apply` on paired scores already in the
// order of evaluation: whether it lets the candidate reach the gate on
// both complete splits, and the tasks it evaluated.
func screened(tp, tq, hp, hq []float64, alpha float64, looks int, seed uint64) (bool, int) {
	for done := anchor.Batch(len(tp)); len(tp) > 0; done += anchor.Batch(len(tp)) { // no train: only holdout
		done = min(done, len(tp))
		if anchor.Screen(tp, tq[:done], hp, nil, alpha, looks, seed) != "" {
			return false, done
		}
		if done == len(tp) {
			break
		}
	}
	for done := anchor.Batch(len(hp)); done < len(hp); done += anchor.Batch(len(hp)) {
		if anchor.Screen(tp, tq, hp, hq[:done], alpha, looks, seed) != "" {
			return false, len(tp) + done
		}
	}
	return true, len(tp) + len(hp)
}

// screened is screen's tally as a report row.
func (s *simulator) screened(su Suite, gain, delta float64, trials int) Screened {
	tl := s.screen(su, delta, trials)
	per := func(runs, n int) float64 { return float64(runs) / float64(max(n, 1)) }
	return Screened{Gain: gain, Trials: trials, Accepts: tl.Accepts, FullAccepts: tl.FullAccepts,
		RunsPerDecision: per(tl.Runs, trials), FullRunsPerDecision: per(tl.FullRuns, trials),
		RunsPerReject: per(tl.RejectRuns, trials-tl.Accepts), FullRunsPerReject: per(tl.FullRejectRuns, trials-tl.Accepts),
		RunsPerAccept: per(tl.Runs-tl.RejectRuns, tl.Accepts)}
}
