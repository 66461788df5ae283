package anchor

import (
	"cmp"
	"fmt"
	"maps"
	"math"
	"slices"
)

// Evidence is what the gate saw on one split: the means before and after,
// how many units (tasks, or groups of tasks) rose and fell, and the sign
// test's p over the changed ones.
type Evidence struct {
	Pre, Post     float64
	Fixed, Broken int
	P             float64
	Look          int `json:",omitempty"` // with two looks, the holdout's look that decided (Decide): 1 or 2
}

// Gate is the acceptance rule on one split, a pure function of paired
// scores: pre[i] and post[i] are the incumbent's and the candidate's score
// on unit i. The rule (docs/ARCHITECTURE.md, "The gate") holds on the
// means (a tie rejects, and so does a NaN); on holdout the gain must also
// beat noise: a one-sided exact sign test over the changed units at alpha. It returns the evidence and a
// rejection reason, or "" when the split passes. `anchor apply` and
// `ratchet plan` both decide through it.
func Gate(split string, pre, post []float64, alpha float64) (Evidence, string) {
	var e Evidence
	for i := range pre {
		e.Pre += pre[i] / float64(len(pre))
		e.Post += post[i] / float64(len(post))
		d := post[i] - pre[i] // a change smaller than rounding is none
		e.Fixed, e.Broken = e.Fixed+b2i(d > 1e-9), e.Broken+b2i(d < -1e-9)
	}
	e.P = SignTest(e.Fixed, e.Broken)
	change := fmt.Sprintf("%s %.3f -> %.3f: %d fixed, %d broken", split, e.Pre, e.Post, e.Fixed, e.Broken)
	if !(e.Post > e.Pre+1e-9) { // rounding never passes for a gain, nor does a NaN
		return e, change + " (did not improve; a tie rejects)"
	}
	if split == "holdout" && e.P > alpha {
		return e, fmt.Sprintf("%s, p = %.3f > %g", change, e.P, alpha)
	}
	return e, ""
}

// SignTest is the one-sided exact sign test over changed units: the chance
// of at least fixed improvements among fixed+broken changes if each change
// were a fair coin. With no change it is 1.
func SignTest(fixed, broken int) float64 {
	n := fixed + broken
	p := 0.0
	for k := fixed; k <= n; k++ {
		lc, _ := math.Lgamma(float64(n + 1))
		lk, _ := math.Lgamma(float64(k + 1))
		lnk, _ := math.Lgamma(float64(n - k + 1))
		p += math.Exp(lc - lk - lnk - float64(n)*math.Ln2)
	}
	return min(p, 1)
}

// GateRuns decides a split through Gate over groups of tasks: a task's
// score is the mean of its runs, a group's the mean of its tasks', and the
// incumbent's and the candidate's groups are paired by name. Only the
// incumbent's runs of tasks the candidate ran count (a screened apply that
// stopped early ran some). Apply's compare and ratchet verify both decide
// through it.
func GateRuns(split string, pre, post []Run, alpha float64) (Evidence, string) {
	ran := map[string]bool{}
	for _, r := range post {
		ran[r.TaskID] = true
	}
	pre = slices.DeleteFunc(slices.Clone(pre), func(r Run) bool { return !ran[r.TaskID] })
	before, after := groupMeans(pre), groupMeans(post)
	var b, a []float64
	for _, g := range slices.Sorted(maps.Keys(after)) {
		b, a = append(b, before[g]), append(a, after[g])
	}
	return Gate(split, b, a, alpha)
}

// Promising is the p at or below which a holdout whose mean rose earns a
// second look.
const Promising = 0.5

// Decide decides a split through GateRuns, and the holdout over the
// ledger's looks (docs/ARCHITECTURE.md, "The gate"), k repeats a look. With
// two, the first look, on the runs of repeats below k, passes at alpha/5; a
// candidate it rejects whose mean rose with p at most Promising is owed a
// second look (again, until its runs are there): repeats k to 3k-1 of every
// task for both harnesses, decided on all the runs at the rest of alpha.
// Each look's test holds its share, so the two together accept a neutral
// candidate at most alpha of the time, however they depend on each other.
func Decide(split string, pre, post []Run, alpha float64, k, looks int) (e Evidence, why string, again bool) {
	if split != "holdout" || looks < 2 {
		e, why = GateRuns(split, pre, post, alpha)
		return e, why, false
	}
	later := func(r Run) bool { return r.Repeat >= k }
	first := func(runs []Run) []Run { return slices.DeleteFunc(slices.Clone(runs), later) }
	e, why = GateRuns(split, first(pre), first(post), alpha/5)
	// promising: rejected, with the mean risen beyond rounding and p at most Promising
	e.Look, again = 1, why != "" && e.Post > e.Pre+1e-9 && e.P <= Promising
	if !again || !slices.ContainsFunc(post, later) { // no second look, or one owed
		return e, why, again
	}
	if e, why = GateRuns(split, pre, post, alpha*4/5); why != "" {
		why = fmt.Sprintf("second look, %d repeats: %s", 3*k, why)
	}
	e.Look = 2
	return e, why, false
}

// groupMeans is each group's score, summed in task order. A run of a ledger
// from before groups is its task's own group.
func groupMeans(runs []Run) map[string]float64 {
	sum, n, group := map[string]float64{}, map[string]float64{}, map[string]string{}
	for _, r := range runs {
		sum[r.TaskID], n[r.TaskID] = sum[r.TaskID]+r.Score, n[r.TaskID]+1
		group[r.TaskID] = cmp.Or(r.Group, r.TaskID)
	}
	means, size := map[string]float64{}, map[string]float64{}
	for _, id := range slices.Sorted(maps.Keys(sum)) {
		means[group[id]] += sum[id] / n[id]
		size[group[id]]++
	}
	for g := range means {
		means[g] /= size[g]
	}
	return means
}
