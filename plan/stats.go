package plan

import (
	"math"

	"ratchet/anchor"
)

// criticals holds, for each number m of changed tasks, the fewest fixed tasks
// whose sign-test p is at most alpha (m+1 when none is). It grows on demand.
type criticals struct {
	alpha float64
	crit  []int
}

func newCriticals(alpha float64) *criticals {
	return &criticals{alpha: alpha, crit: []int{1}} // 0 changed: p = 1, never
}

// at returns the critical count for m changed tasks. The critical count
// never falls as m grows and rises by at most one per task (adding a task
// raises the tail at f and lowers it at f+1), so each step tries two values.
func (c *criticals) at(m int) int {
	for len(c.crit) <= m {
		n := len(c.crit)
		f := c.crit[n-1]
		if anchor.SignTest(f, n-f) > c.alpha { // the gate's own test
			f++
		}
		c.crit = append(c.crit, f)
	}
	return c.crit[m]
}

// minChanged is the fewest changed tasks with which the gate can accept at
// all (every one of them fixed), or 0 when none up to limit can.
func (c *criticals) minChanged(limit int) int {
	for m := 1; m <= limit; m++ {
		if c.at(m) <= m {
			return m
		}
	}
	return 0
}

func logit(p float64) float64   { return math.Log(p / (1 - p)) }
func sigmoid(x float64) float64 { return 1 / (1 + math.Exp(-x)) }

// shifted returns the pass probabilities ps moved by delta on the logit scale.
func shifted(ps []float64, delta float64) []float64 {
	out := make([]float64, len(ps))
	for i, p := range ps {
		out[i] = p
		if delta != 0 {
			out[i] = sigmoid(logit(p) + delta)
		}
	}
	return out
}

// logitShift returns the logit step that raises the mean score of a split
// by gain points (0.05 is five points), and false when no step can: the
// mean can rise at most to 1. A task's expected score is its base plus the
// rest times its solve rate (base nil: 0). Every rate must lie strictly
// between 0 and 1.
func logitShift(ps, base []float64, gain float64) (float64, bool) {
	if gain <= 0 {
		return 0, gain == 0
	}
	start := meanScore(ps, base)
	if start+gain >= 1-1e-9 {
		return 0, false
	}
	lo, hi := 0.0, 1.0
	for meanScore(shifted(ps, hi), base)-start < gain {
		if hi *= 2; hi > 1e3 {
			return 0, false
		}
	}
	for range 100 {
		mid := (lo + hi) / 2
		if meanScore(shifted(ps, mid), base)-start < gain {
			lo = mid
		} else {
			hi = mid
		}
	}
	return hi, true
}

// meanScore is the expected mean score of tasks with solve rates ps and
// base scores base (nil: 0).
func meanScore(ps, base []float64) float64 {
	s := make([]float64, len(ps))
	for i, p := range ps {
		s[i] = scoreOf(0, 1, base, i) + (1-scoreOf(0, 1, base, i))*p
	}
	return mean(s)
}

func mean(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := 0.0
	for _, x := range xs {
		s += x
	}
	return s / float64(len(xs))
}

// MinChanged is the fewest changed holdout tasks, all of them fixed, whose
// one-sided exact sign test reaches p <= alpha: on a holdout with fewer
// tasks the gate can never accept. 0 when no holdout up to the largest
// planned can.
func MinChanged(alpha float64) int { return newCriticals(alpha).minChanged(maxHoldout) }
