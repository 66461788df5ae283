package plan

import (
	"math"
	"math/rand/v2"
	"slices"
)

// A task's score is planned as two-valued: 1 when the model solves it, and
// otherwise its base, the share of its hidden tests the unsolved tree
// passes (0 for most tasks). A harness change moves the chance of solving.
// One run of a task cannot tell a task the model nearly always solves from
// one it solves half the time, and the gate's power turns on that
// difference: tasks that never change cost nothing, tasks that flip on
// every draw are noise. So the plan does not estimate each task alone; it
// puts a prior on the population of solve rates, like the one public agent
// benchmarks show (about a third of tasks nearly never solved, a third
// nearly always, the rest in between), fitted to what the ledger shows,
// and draws each task's rate from its posterior given its own runs.

// atom is one solve rate of a prior and its weight.
type atom struct{ rate, weight float64 }

// Rates of the prior: nearly never, nearly always, and nine between.
const (
	rateNever, rateAlways = 0.02, 0.98
	middleShare           = 0.30
)

// benchmarkPrior is the benchmark-like prior whose mean solve rate is
// solved: 30% of tasks spread evenly over 0.1..0.9, the rest split between
// nearly never and nearly always so that the mean matches.
func benchmarkPrior(solved float64) []atom {
	ends := 1 - middleShare
	// mean = never*0.02 + (ends-never)*0.98 + middleShare*0.5
	never := (ends*rateAlways + middleShare*0.5 - solved) / (rateAlways - rateNever)
	never = min(max(never, 0), ends)
	prior := []atom{{rateNever, never}, {rateAlways, ends - never}}
	for i := 1; i <= 9; i++ {
		prior = append(prior, atom{float64(i) / 10, middleShare / 9})
	}
	return prior
}

// outcome is what a task's runs say: solved of runs.
type outcome struct{ solved, runs int }

// solvedOf reads a task's run scores as an outcome (a run scoring 1 solved
// it) and the scores of its unsolved runs.
func solvedOf(scores []float64) (o outcome, unsolved []float64) {
	o.runs = len(scores)
	for _, x := range scores {
		if x >= 1-1e-9 {
			o.solved++
		} else {
			unsolved = append(unsolved, x)
		}
	}
	return o, unsolved
}

// likelihood is the chance of o at solve rate r.
func (o outcome) likelihood(r float64) float64 {
	return math.Pow(r, float64(o.solved)) * math.Pow(1-r, float64(o.runs-o.solved))
}

// fitPrior fits the prior's weights to the tasks' outcomes by EM, starting
// from prior. With one run per task only the mean is identified, and the
// start (benchmarkPrior, already at the observed mean) is kept; with
// repeats, tasks whose runs agree pull weight to the ends, tasks whose runs
// disagree to the middle.
func fitPrior(prior []atom, tasks []outcome) []atom {
	if !slices.ContainsFunc(tasks, func(o outcome) bool { return o.runs > 1 }) {
		return prior
	}
	w := slices.Clone(prior)
	for range 200 {
		next := make([]float64, len(w))
		for _, o := range tasks {
			post := posterior(w, o)
			for i := range post {
				next[i] += post[i].weight / float64(len(tasks))
			}
		}
		for i := range w {
			w[i].weight = next[i]
		}
	}
	return w
}

// posterior is prior updated by a task's outcome, normalised.
func posterior(prior []atom, o outcome) []atom {
	post, sum := slices.Clone(prior), 0.0
	for i := range post {
		post[i].weight *= o.likelihood(post[i].rate)
		sum += post[i].weight
	}
	for i := range post {
		post[i].weight /= sum
	}
	return post
}

// drawRate draws a solve rate from atoms with rng.
func drawRate(atoms []atom, rng *rand.Rand) float64 {
	u := rng.Float64()
	for _, a := range atoms {
		if u -= a.weight; u < 0 {
			return a.rate
		}
	}
	return atoms[len(atoms)-1].rate
}
