package anchor

import (
	"fmt"
	"math/rand/v2"
	"slices"
)

// Futile is the predictive probability of acceptance below which the
// screen stops evaluating a candidate (see docs/ARCHITECTURE.md, "The cost of a decision").
const Futile = 0.1

// Batch is the number of tasks of a split of n the screen evaluates at a
// time: an eighth, and at least 4.
func Batch(n int) int { return max(4, (n+7)/8) }

// Screen decides, between batches, whether evaluating a candidate further
// can still lead to an accept. train and hold are the incumbent's scores
// per unit in the order of evaluation; trainPost and holdPost are the
// candidate's on the units evaluated so far (holdPost is empty on train).
// It returns a rejection reason, or "" to go on. It never accepts: only
// Gate, on complete splits, does. It rejects when no completion can pass
// Gate, and when the predictive probability of passing is below Futile:
// the unevaluated units are drawn many times, each low unit fixed and each
// high unit broken at rates drawn from their posteriors (uniform priors)
// given what was seen, on train and holdout alike. The draws are seeded.
// With two looks (Decide) it judges the chance to pass one look at 4·alpha,
// between the first look's bar and a promising holdout's, and stops below
// 0.3: in ratchet plan's simulation of whole applies that accepts more +5
// and +10 point gains than one look's screen at fewer runs per neutral
// candidate (docs/ARCHITECTURE.md, "Two looks").
func Screen(train, trainPost, hold, holdPost []float64, alpha float64, looks int, seed uint64) string {
	futile := Futile
	if looks > 1 {
		alpha, futile = 4*alpha, 0.3
	}
	rng := rand.New(rand.NewPCG(seed, 23)) // for the best case; the draws below have their own stream
	// gate completes both splits, fixing a unit the incumbent failed at rate
	// fix and breaking one it passed at rate brk, and returns Gate's reasons.
	gate := func(fix, brk float64) string {
		complete := func(pre, post []float64) []float64 {
			out := slices.Clone(post)
			for _, p := range pre[len(post):] {
				switch u := rng.Float64(); {
				case p < 1 && u < fix:
					p = 1
				case p > 0 && rng.Float64() < brk:
					p = 0
				}
				out = append(out, p)
			}
			return out
		}
		_, t := Gate("train", train, complete(train, trainPost), alpha)
		_, h := Gate("holdout", hold, complete(hold, holdPost), alpha)
		return t + h
	}
	if why := gate(1, 0); why != "" { // every unit left scores 1
		return "cannot pass even if every unit left scored 1, a best case that gives " + why
	}
	rng = rand.New(rand.NewPCG(seed, 22))
	var low, fixed, high, broken int
	for _, s := range [][2][]float64{{train, trainPost}, {hold, holdPost}} {
		for i, p := range s[1] {
			low, fixed = low+b2i(s[0][i] < 1), fixed+b2i(p > s[0][i]+1e-9)
			high, broken = high+b2i(s[0][i] > 0), broken+b2i(p < s[0][i]-1e-9)
		}
	}
	beta := func(a, b int) float64 { // Beta(a, b) for whole a, b: a ratio of gamma draws
		x, y := 0.0, 0.0
		for range a {
			x += rng.ExpFloat64()
		}
		for range b {
			y += rng.ExpFloat64()
		}
		return x / (x + y)
	}
	const draws = 400
	accepts := 0
	for range draws {
		fix, brk := beta(1+fixed, 1+low-fixed), beta(1+broken, 1+high-broken)
		if accepts += b2i(gate(fix, brk) == ""); float64(accepts) > futile*draws {
			return "" // not futile: the rest need not be drawn
		}
	}
	if p := float64(accepts) / draws; p < futile {
		return fmt.Sprintf("futile: a %.3f chance to pass (%d tasks fixed, %d broken on both splits), below %g",
			p, fixed, broken, futile)
	}
	return ""
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
