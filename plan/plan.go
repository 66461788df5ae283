// Package plan says what the anchor's gate can detect on a suite: the
// smallest holdout gain it accepts with a given power, the holdout size or
// repeats a smaller gain needs, and how often it accepts a change that does
// nothing (the A/A game). It reads the ledger read-only (internal/ledgerdb)
// and simulates the gate with the anchor's own SignTest; it writes nothing.
// It imports the anchor and internal/ledgerdb, nothing else of ours
// (docs/ARCHITECTURE.md, "Layout").
package plan

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// Limits of the searches for the holdout size and the repeats a gain needs.
const (
	maxHoldout = 5000
	maxRepeats = 100
)

// Config says what to plan. Zero values take the defaults noted.
type Config struct {
	Home   string    // the anchor's home, holding ledger.db
	Trials int       // simulated applies per power figure (2000)
	Seed   uint64    // PCG seed; the same seed gives the same figures
	AA     int       // A/A trials; 0 skips the A/A game
	Power  float64   // target power (0.8)
	Gains  []float64 // gains to plan for, in mean score (0.05, 0.10, 0.20)

	// Assumptions instead of the ledger's evidence. With P and Holdout both
	// set the ledger is not read.
	P              float64 // every task passes with this probability
	Train, Holdout int     // suite sizes
	K              int     // repeats per task
	Alpha          float64 // the sign test's alpha
	Looks          int     // the holdout's looks, 1 or 2 (default: the ledger's, else 2 as anchor init records)
	// Runs of the baseline per task that anchor init --survey will leave,
	// for the screen's order, where the ledger's own runs do not say it.
	Survey int

	// Each task's group, in task order (from ratchet plan --tasks): the
	// gate's units. Ignored when a split's size does not match.
	TrainGroups, HoldoutGroups []string

	ScreenTrials int // simulated applies per figure of the screen (200)

	Prior bool // plan from the benchmark-like prior, not the ledger (needs Holdout)
	Quick bool // only the power and the smallest gain detected: no screen, no sizes needed
}

// Report is a plan. JSON names are snake_case.
type Report struct {
	Source        string     `json:"source"` // "ledger", "assumed" (--p) or "prior" (no ledger yet)
	HeadGen       *int       `json:"head_gen,omitempty"`
	HarnessHash   string     `json:"harness_hash,omitempty"`
	Model         string     `json:"model,omitempty"`
	Repeats       int        `json:"repeats"`
	Alpha         float64    `json:"alpha"`
	Looks         int        `json:"looks"` // the holdout's looks (anchor.Decide)
	TrainTasks    int        `json:"train_tasks"`
	HoldoutTasks  int        `json:"holdout_tasks"`
	TrainGroups   int        `json:"train_groups"`           // the gate's units: groups of tasks
	HoldoutGroups int        `json:"holdout_groups"`         // (a task without a group is its own)
	TrainMean     *float64   `json:"train_mean,omitempty"`   // observed, as the gate computes it
	HoldoutMean   *float64   `json:"holdout_mean,omitempty"` // observed
	PlannedMean   float64    `json:"planned_holdout_mean"`   // mean of the planned pass rates
	FlakyTasks    int        `json:"flaky_tasks"`            // tasks whose repeats disagree
	Deterministic bool       `json:"deterministic"`          // K > 1 and no task's repeats disagree: planned as K = 1
	GainModel     string     `json:"gain_model"`
	TargetPower   float64    `json:"target_power"`
	Trials        int        `json:"trials"`
	Seed          uint64     `json:"seed"`
	MinChanged    int        `json:"min_changed"` // fewest changed holdout groups that can pass the sign test; 0: none can
	MDE           *float64   `json:"mde"`         // smallest gain detected with the target power; null: none
	Gains         []GainPlan `json:"gains"`
	AA            *AA        `json:"aa,omitempty"`
	Screen        []Screened `json:"screen"` // what anchor apply's screen costs and keeps: A/A first, then each gain
	Notes         []string   `json:"notes"`
	// What one run of the head cost (from the ledger): the screen's runs
	// per decision times these are what a decision costs at most (the reply
	// cache serves a candidate's unchanged requests free).
	RequestsPerRun float64     `json:"requests_per_run,omitempty"`
	TokensPerRun   float64     `json:"tokens_per_run,omitempty"`
	Prior          []PriorAtom `json:"prior,omitempty"` // the solve rates planned from the ledger, as fitted
}

// PriorAtom is one solve rate of the fitted prior and its share of tasks.
type PriorAtom struct {
	Rate   float64 `json:"rate"`
	Weight float64 `json:"weight"`
}

// GainPlan is what the gate does with one gain. Null means out of reach
// (or beyond the search limits).
type GainPlan struct {
	Gain               float64  `json:"gain"`
	Power              *float64 `json:"power"`                // share of applies accepted
	TrainUp            *float64 `json:"train_up"`             // share with the train mean strictly up
	HoldoutPass        *float64 `json:"holdout_pass"`         // share with the holdout mean up and p <= alpha
	HoldoutTasksNeeded *int     `json:"holdout_tasks_needed"` // at this K
	// the groups those tasks make, the gate's units: a suite grows by
	// groups of its own sizes, and more tasks in the same groups do not help
	HoldoutGroupsNeeded *int `json:"holdout_groups_needed"`
	RepeatsNeeded       *int `json:"repeats_needed"` // at this holdout size
}

// Screened is the screen of `anchor apply` on one gain (0: the A/A game),
// simulated on the same draws screened and in full (ANCHOR_SCREEN=off).
type Screened struct {
	Gain                float64 `json:"gain"`
	Trials              int     `json:"trials"`
	Accepts             int     `json:"accepts"`
	FullAccepts         int     `json:"full_accepts"`
	RunsPerDecision     float64 `json:"runs_per_decision"`
	FullRunsPerDecision float64 `json:"full_runs_per_decision"`
	RunsPerReject       float64 `json:"runs_per_reject"`
	FullRunsPerReject   float64 `json:"full_runs_per_reject"`
	RunsPerAccept       float64 `json:"runs_per_accept"` // 0 when none was accepted
}

// AA is the A/A game: candidates drawn from the same pass rates as the head.
type AA struct {
	Trials          int     `json:"trials"`
	Accepts         int     `json:"accepts"`
	FalseAcceptRate float64 `json:"false_accept_rate"`
	StdErr          float64 `json:"std_err"`
	TrainUp         float64 `json:"train_up"`     // share with the train mean strictly up
	HoldoutPass     float64 `json:"holdout_pass"` // share passing the holdout side alone
}

// Plan reads the ledger (unless the config assumes everything) and
// simulates the gate.
func Plan(ctx context.Context, c Config) (*Report, error) {
	c.Trials = cmp.Or(c.Trials, 2000)
	c.Power = cmp.Or(c.Power, 0.8)
	if len(c.Gains) == 0 {
		c.Gains = []float64{0.05, 0.10, 0.20}
	}
	if err := c.check(); err != nil {
		return nil, err
	}
	r := &Report{Source: "assumed", GainModel: "logit", TargetPower: c.Power, Trials: c.Trials, Seed: c.Seed, Notes: []string{}}
	var su Suite
	_, statErr := os.Stat(filepath.Join(c.Home, "ledger.db"))
	fromPrior := c.P == 0 && c.Holdout > 0 && (c.Prior || errors.Is(statErr, fs.ErrNotExist))
	if fromPrior || c.P > 0 && c.Holdout > 0 {
		su.K, su.Alpha, su.Looks = 1, 0.05, 2
	} else {
		o, err := Load(ctx, c.Home)
		if err != nil {
			return nil, err
		}
		r.fromLedger(o, &su, c.Seed)
	}
	su.K, su.Alpha, su.Looks = cmp.Or(c.K, su.K), cmp.Or(c.Alpha, su.Alpha), cmp.Or(c.Looks, su.Looks)
	if su.Survey = c.Survey; c.Survey > 0 { // the ledger's order is replaced by the survey's (1: none, random)
		su.TrainTier, su.HoldoutTier, su.SecondCached = nil, nil, c.Survey >= 3
	}
	if fromPrior { // no ledger yet (ratchet plan --tasks SUITE before anchor init)
		rng, prior := rand.New(rand.NewPCG(c.Seed, 0x9e3779b9)), benchmarkPrior(0.5)
		for range c.Train {
			su.Train = append(su.Train, drawRate(prior, rng))
		}
		for range c.Holdout {
			su.Holdout = append(su.Holdout, drawRate(prior, rng))
		}
		r.Source = "prior"
		r.Notes = append(r.Notes, fmt.Sprintf("no ledger in %s yet: every task planned at a solve rate drawn from a "+
			"benchmark-like prior (a third of tasks nearly never solved, a third nearly always, the rest between; "+
			"half solved in all), an unsolved task scoring 0; after anchor init, plan reads the suite's own runs", c.Home))
	} else if c.P > 0 {
		su.Train = assumed(c.P, cmp.Or(c.Train, len(su.Train)))
		su.Holdout = assumed(c.P, cmp.Or(c.Holdout, len(su.Holdout)))
		r.Source = "assumed"
		r.Notes = append(r.Notes, fmt.Sprintf("every task planned at pass rate %.2f (--p)", c.P))
	} else {
		su = resized(su, c.Train, c.Holdout)
		r.Notes = append(r.Notes, "each task planned as solved (score 1) or not (the score of its unsolved runs), at a "+
			"solve rate drawn from its posterior under a prior fitted to the suite (prior in --json): about a third of "+
			"tasks nearly never solved, a third nearly always, the rest between, as public agent benchmarks show; "+
			"one run per task cannot tell them apart, repeats (ANCHOR_REPEATS) can; --p plans with a rate of your own")
	}
	if len(c.TrainGroups) == len(su.Train) && len(c.HoldoutGroups) == len(su.Holdout) {
		su.TrainGroups, su.HoldoutGroups = groupIndex(c.TrainGroups), groupIndex(c.HoldoutGroups)
	}
	r.Repeats, r.Alpha, r.Looks = su.K, su.Alpha, su.Looks
	r.TrainTasks, r.HoldoutTasks = len(su.Train), len(su.Holdout)
	r.TrainGroups, r.HoldoutGroups = distinct(su.TrainGroups, len(su.Train)), distinct(su.HoldoutGroups, len(su.Holdout))
	r.PlannedMean = meanScore(su.Holdout, su.HoldoutBase)
	if len(su.Train) == 0 {
		r.Notes = append(r.Notes, "no train tasks: only the holdout side of the gate is simulated")
	}

	sim := newSimulator(c.Seed, c.Trials)
	r.MinChanged = sim.criticals(su.Alpha).minChanged(maxHoldout)
	if d, ok := sim.mde(su, c.Power); ok {
		r.MDE = &d
	}
	for _, g := range c.Gains {
		gp := GainPlan{Gain: g}
		if delta, ok := logitShift(su.Holdout, su.HoldoutBase, g); ok {
			tl := sim.play(su, delta, c.Trials)
			gp.Power, gp.TrainUp, gp.HoldoutPass = tl.share(tl.Accepts), tl.share(tl.TrainUp), tl.share(tl.HoldoutPass)
		}
		if c.Quick {
			r.Gains = append(r.Gains, gp)
			continue
		}
		if n, ok := sim.holdoutNeeded(su, g, c.Power, maxHoldout); ok {
			g := distinct(grown(su, n).HoldoutGroups, n)
			gp.HoldoutTasksNeeded, gp.HoldoutGroupsNeeded = &n, &g
		}
		if k, ok := sim.repeatsNeeded(su, g, c.Power, maxRepeats); ok {
			gp.RepeatsNeeded = &k
		}
		r.Gains = append(r.Gains, gp)
	}
	for _, g := range append([]float64{0}, c.Gains...) {
		if delta, ok := logitShift(su.Holdout, su.HoldoutBase, g); ok && !c.Quick {
			r.Screen = append(r.Screen, sim.screened(su, g, delta, cmp.Or(c.ScreenTrials, 200)))
		}
	}
	if c.AA > 0 {
		tl := sim.play(su, 0, c.AA)
		rate := *tl.share(tl.Accepts)
		r.AA = &AA{Trials: c.AA, Accepts: tl.Accepts, FalseAcceptRate: rate, StdErr: math.Sqrt(rate * (1 - rate) / float64(c.AA)),
			TrainUp: *tl.share(tl.TrainUp), HoldoutPass: *tl.share(tl.HoldoutPass)}
	}
	return r, nil
}

func (c Config) check() error {
	var errs []error
	if c.Trials < 1 || c.AA < 0 || c.ScreenTrials < 0 {
		errs = append(errs, errors.New("--trials and --screen-trials must be at least 1 and --aa at least 0"))
	}
	if c.Power <= 0 || c.Power >= 1 {
		errs = append(errs, fmt.Errorf("--power %g must lie between 0 and 1", c.Power))
	}
	if c.Looks < 0 || c.Looks > 2 || c.Survey < 0 || c.Survey > maxRepeats {
		errs = append(errs, fmt.Errorf("--looks must be 1 or 2, --survey between 1 and %d", maxRepeats))
	}
	if c.P < 0 || c.P >= 1 || c.Alpha < 0 || c.Alpha >= 1 {
		errs = append(errs, errors.New("--p and --alpha must lie between 0 and 1 (exclusive)"))
	}
	if c.Train < 0 || c.Holdout < 0 || c.K < 0 || c.Holdout > maxHoldout || c.K > maxRepeats {
		errs = append(errs, fmt.Errorf("--train, --holdout and --repeats must be positive (holdout at most %d, repeats at most %d)", maxHoldout, maxRepeats))
	}
	for _, g := range c.Gains {
		if g <= 0 || g >= 1 {
			errs = append(errs, fmt.Errorf("gain %g: a gain is a rise of the mean score between 0 and 1 (0.05 is five points)", g))
		}
	}
	return errors.Join(errs...)
}

// fromLedger fills the report's description of the head and su's pass rates.
// When K > 1 and no task's repeats disagree, the server looks deterministic:
// its repeats are one draw counted K times, so the plan reads one repeat per
// task and simulates K = 1 (the conservative reading; --repeats overrides).
func (r *Report) fromLedger(o *Observed, su *Suite, seed uint64) {
	r.Source, r.HeadGen, r.HarnessHash, r.Model = "ledger", &o.Gen, o.Hash, o.Model
	r.RequestsPerRun, r.TokensPerRun = o.RequestsPerRun, o.TokensPerRun
	su.K, su.Alpha, su.Looks = o.K, o.Alpha, o.Looks
	all := append(slices.Clone(o.Train), o.Holdout...)
	reps := 0 // the most runs of one task: K, or more after anchor init --survey
	for _, t := range all {
		if len(t.Scores) > 1 && slices.Min(t.Scores) != slices.Max(t.Scores) {
			r.FlakyTasks++
		}
		reps = max(reps, len(t.Scores))
	}
	su.SecondCached = !slices.ContainsFunc(o.Holdout, func(t TaskScores) bool { return len(t.Scores) < 3*o.K })
	r.Deterministic = reps > 1 && r.FlakyTasks == 0
	if r.Deterministic {
		su.K = 1
		r.Notes = append(r.Notes, fmt.Sprintf("no task's %d repeats disagree: the server looks deterministic, so its repeats are one draw counted %d times; planned as K = 1 (more repeats buy nothing there; the repeats column assumes a server that samples)", reps, reps))
	}
	runsOf := func(t TaskScores) []float64 {
		if r.Deterministic {
			return t.Scores[:1]
		}
		return t.Scores
	}
	// One prior for the whole suite, fitted to every task's outcomes; then
	// each task's rate is drawn from its posterior, its base is what its
	// unsolved runs scored (a task solved on every run gets the suite's
	// typical base).
	var outcomes []outcome
	var unsolved []float64
	for _, t := range all {
		oc, un := solvedOf(runsOf(t))
		outcomes, unsolved = append(outcomes, oc), append(unsolved, un...)
	}
	solved := 0.0
	for _, oc := range outcomes {
		solved += float64(oc.solved) / float64(oc.runs) / float64(len(outcomes))
	}
	// The prior's weights are fitted to the head's runs and every other
	// harness's first runs of the same tasks (o.Across): two harnesses of one
	// ledger are two draws of each task, and how often they disagree is the
	// noise. With the head's runs alone and one repeat, only the mean is
	// known and the benchmark shape stays.
	for i, t := range all {
		for _, s := range o.Across[t.ID] {
			outcomes[i].runs, outcomes[i].solved = outcomes[i].runs+1, outcomes[i].solved+b2i(s)
		}
	}
	prior := fitPrior(benchmarkPrior(solved), outcomes)
	r.Prior = make([]PriorAtom, len(prior))
	for i, a := range prior {
		r.Prior[i] = PriorAtom{Rate: a.rate, Weight: a.weight}
	}
	typical := mean(unsolved)
	rng := rand.New(rand.NewPCG(seed, 0x9e3779b9))
	means := func(ts []TaskScores, rates, base *[]float64) *float64 {
		if len(ts) == 0 {
			return nil
		}
		var ms []float64
		for _, t := range ts {
			ms = append(ms, mean(t.Scores))
			oc, un := solvedOf(runsOf(t)) // its rate given its own runs
			*rates = append(*rates, drawRate(posterior(prior, oc), rng))
			if len(un) == 0 {
				*base = append(*base, typical)
			} else {
				*base = append(*base, mean(un))
			}
		}
		m := mean(ms)
		return &m
	}
	r.TrainMean = means(o.Train, &su.Train, &su.TrainBase)
	r.HoldoutMean = means(o.Holdout, &su.Holdout, &su.HoldoutBase)
	names := func(ts []TaskScores) (g []string) {
		for _, t := range ts {
			g = append(g, cmp.Or(t.Group, t.ID))
		}
		return g
	}
	su.TrainGroups, su.HoldoutGroups = groupIndex(names(o.Train)), groupIndex(names(o.Holdout))
	tiers := func(ts []TaskScores) (out []int) {
		for _, t := range ts {
			out = append(out, t.Tier)
		}
		return out
	}
	su.TrainTier, su.HoldoutTier = tiers(o.Train), tiers(o.Holdout)
	count := func(tier []int, k int) int {
		return len(slices.DeleteFunc(slices.Clone(tier), func(t int) bool { return t != k }))
	}
	known := len(su.TrainTier) + len(su.HoldoutTier) - count(su.TrainTier, 1) - count(su.HoldoutTier, 1)
	r.Notes = append(r.Notes, fmt.Sprintf("the screen's order: %d train and %d holdout tasks have runs that disagree "+
		"(evaluated first), %d and %d three or more runs that agree (last)", count(su.TrainTier, 0), count(su.HoldoutTier, 0),
		count(su.TrainTier, 2), count(su.HoldoutTier, 2)))
	if known == 0 {
		r.Notes[len(r.Notes)-1] += "; the ledger ran each task too few times to tell: a ledger begun with anchor " +
			"init --survey 3 knows from its first apply (ratchet plan --survey 3 plans one)"
	}
}

// groupIndex numbers the groups of names densely, in order of first sight.
func groupIndex(names []string) []int {
	if len(names) == 0 {
		return nil
	}
	index, out := map[string]int{}, make([]int, len(names))
	for i, n := range names {
		if _, ok := index[n]; !ok {
			index[n] = len(index)
		}
		out[i] = index[n]
	}
	return out
}

// distinct is how many groups n tasks of groups make (nil: each its own).
func distinct(groups []int, n int) int {
	if groups == nil {
		return n
	}
	return len(slices.Compact(slices.Sorted(slices.Values(groups))))
}

func assumed(p float64, n int) []float64 {
	ps := make([]float64, n)
	for i := range ps {
		ps[i] = p
	}
	return ps
}

// resized gives su the requested split sizes, repeating its observed pass
// rates in order.
func resized(su Suite, train, hold int) Suite {
	if hold > 0 {
		su = withHoldout(su, hold)
	}
	if train > 0 && len(su.Train) > 0 {
		su.Train, su.TrainGroups = repeated(su.Train, train), repeatedGroups(su.TrainGroups, train)
		su.TrainBase = repeatedBase(su.TrainBase, train)
	}
	return su
}

// WriteText prints the report for people.
func (r *Report) WriteText(w io.Writer) error {
	var b strings.Builder
	if r.HeadGen != nil {
		fmt.Fprintf(&b, "head: generation %d, harness %.12s, model %s\n", *r.HeadGen, r.HarnessHash, r.Model)
	}
	looks := ""
	if r.Looks > 1 {
		looks = fmt.Sprintf(" over two looks (a promising holdout is looked at again, %d more repeats a task)", 2*r.Repeats)
	}
	fmt.Fprintf(&b, "suite: %d train tasks in %d groups, %d holdout tasks in %d groups (the gate's units); planned at K = %d repeat(s) per task; alpha = %g%s\n",
		r.TrainTasks, r.TrainGroups, r.HoldoutTasks, r.HoldoutGroups, r.Repeats, r.Alpha, looks)
	if r.HoldoutMean != nil && r.TrainMean != nil {
		fmt.Fprintf(&b, "observed: train mean %.3f, holdout mean %.3f, %d flaky task(s)\n", *r.TrainMean, *r.HoldoutMean, r.FlakyTasks)
	} else if r.HoldoutMean != nil {
		fmt.Fprintf(&b, "observed: holdout mean %.3f, %d flaky task(s)\n", *r.HoldoutMean, r.FlakyTasks)
	}
	fmt.Fprintf(&b, "planned holdout mean score %.3f; a gain moves every task's solve rate by one logit step\n", r.PlannedMean)
	if r.MinChanged == 0 {
		fmt.Fprintf(&b, "the sign test can never reach p <= %g\n", r.Alpha)
	} else {
		fmt.Fprintf(&b, "the sign test needs at least %d changed holdout groups, all fixed, to reach p <= %g\n", r.MinChanged, r.Alpha)
	}
	fmt.Fprintf(&b, "\nsmallest holdout gain accepted with %.0f%% power: %s\n", 100*r.TargetPower, points(r.MDE))
	fmt.Fprintf(&b, "%-6s %-6s %-9s %-13s %-26s %s\n", "gain", "power", "train up", "holdout pass", "holdout groups needed", "repeats needed")
	for _, g := range r.Gains {
		if g.Power == nil {
			fmt.Fprintf(&b, "%-6s out of reach\n", fmt.Sprintf("+%.0f", 100*g.Gain))
			continue
		}
		needed := fmt.Sprintf("more than %d tasks", maxHoldout)
		if g.HoldoutGroupsNeeded != nil {
			needed = fmt.Sprintf("%d (%d tasks)", *g.HoldoutGroupsNeeded, *g.HoldoutTasksNeeded)
		}
		fmt.Fprintf(&b, "%-6s %-6s %-9s %-13s %-26s %s\n", fmt.Sprintf("+%.0f", 100*g.Gain), percent(*g.Power), percent(*g.TrainUp),
			percent(*g.HoldoutPass), needed, count(g.RepeatsNeeded, maxRepeats))
	}
	fmt.Fprintf(&b, "(groups needed at K = %d, new groups the sizes of this suite's, train grown in proportion; "+
		"repeats needed at this suite size)\n", r.Repeats)
	fmt.Fprintf(&b, "(%d simulated applies per figure, seed %d)\n", r.Trials, r.Seed)
	if r.AA != nil {
		fmt.Fprintf(&b, "\nA/A: %d of %d candidates that change nothing accepted: false-accept rate %.4f ± %.4f (alpha %g;\n     train up %s, holdout side alone %s)\n",
			r.AA.Accepts, r.AA.Trials, r.AA.FalseAcceptRate, r.AA.StdErr, r.Alpha, percent(r.AA.TrainUp), percent(r.AA.HoldoutPass))
	}
	if len(r.Screen) > 0 {
		fmt.Fprintf(&b, "\nanchor apply's screen (ANCHOR_SCREEN=on), against the full evaluation (off), on the same draws:\n")
		fmt.Fprintf(&b, "%-6s %-17s %-26s %s\n", "gain", "accepted", "runs per decision", "runs per rejection")
		for _, s := range r.Screen {
			fmt.Fprintf(&b, "%-6s %-17s %-26s %s\n", fmt.Sprintf("+%.0f", 100*s.Gain), fmt.Sprintf("%d vs %d of %d", s.Accepts, s.FullAccepts, s.Trials),
				fmt.Sprintf("%.1f vs %.1f (%.0f%%)", s.RunsPerDecision, s.FullRunsPerDecision, 100*s.RunsPerDecision/s.FullRunsPerDecision),
				fmt.Sprintf("%.1f vs %.1f", s.RunsPerReject, s.FullRunsPerReject))
		}
		if r.RequestsPerRun > 0 {
			aa := r.Screen[0] // the A/A row: what a candidate that changes nothing costs
			fmt.Fprintf(&b, "cost: a run of the head sent %.1f model requests (%.0f tokens); a rejected neutral candidate "+
				"costs at most %.0f requests (%.0f runs)", r.RequestsPerRun, r.TokensPerRun, aa.RunsPerReject*r.RequestsPerRun, aa.RunsPerReject)
			for _, s := range r.Screen[1:] {
				if s.Accepts > 0 {
					fmt.Fprintf(&b, ", an accepted +%.0f-point one %.0f (%.0f runs)", 100*s.Gain, s.RunsPerAccept*r.RequestsPerRun, s.RunsPerAccept)
				}
			}
			fmt.Fprintf(&b, "; the reply cache makes a candidate's unchanged requests free\n")
		}
	}
	for _, n := range r.Notes {
		fmt.Fprintf(&b, "note: %s\n", n)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func points(d *float64) string {
	if d == nil {
		return "none: no reachable gain"
	}
	return fmt.Sprintf("+%.1f points", 100**d)
}

func percent(x float64) string { return fmt.Sprintf("%.0f%%", 100*x) }

func count(n *int, limit int) string {
	if n == nil {
		return fmt.Sprintf("more than %d", limit)
	}
	return fmt.Sprint(*n)
}

// Sees checks, from the head's runs in home, that the gate can accept at
// all on the ledger's suite: an error says why it never can. A warning says
// when it would miss a holdout gain of gain points more often than not. A
// ledger plan cannot read gives neither (its user meets the reason first).
func Sees(ctx context.Context, home string, gain float64) (warning string, err error) {
	r, err := Plan(ctx, Config{Home: home, Quick: true, Trials: 1000, Gains: []float64{gain}})
	if err != nil {
		return "", nil
	}
	if r.MinChanged == 0 || r.HoldoutGroups < r.MinChanged {
		return "", fmt.Errorf("the gate can never accept on this suite: %d holdout group(s), and its sign test needs "+
			"at least %d changed ones at alpha %g; add tasks of more groups (ratchet tasks validate says how many) "+
			"before spending tokens on rounds", r.HoldoutGroups, r.MinChanged, r.Alpha)
	}
	power, mde := r.Reach()
	if power >= 0.5 {
		return "", nil
	}
	return fmt.Sprintf("on %d holdout groups the gate accepts a +%.0f-point gain in about %.0f%% of applies "+
		"(smallest gain at 80%% power: %s; ratchet plan says more): most real gains of that size will be rejected",
		r.HoldoutGroups, 100*gain, 100*power, mde), nil
}

// Reach is the power at the first planned gain (0 when it is out of reach)
// and the smallest gain the gate accepts with the target power, in words.
func (r *Report) Reach() (power float64, mde string) {
	if len(r.Gains) > 0 && r.Gains[0].Power != nil {
		power = *r.Gains[0].Power
	}
	return power, points(r.MDE)
}
