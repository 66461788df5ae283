package evolve

import (
	"context"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"ratchet/anchor"
)

// decision says what the judge decided about a candidate in words the
// evolver may see. Holdout appears only as the decision: the anchor's
// reasons for holdout carry its numbers and p-values, which the evolver
// could fit, so they are never passed through.
func decision(g anchor.Gen) (verdict, reason string) {
	secret := func(s string) bool {
		s = strings.ToLower(s)
		return strings.Contains(s, "holdout") || strings.Contains(s, "sealed")
	}
	switch g.Decision {
	case "accept":
		if g.TrainPre != nil && g.TrainPost != nil {
			return "accepted", fmt.Sprintf("train improved (%.3f -> %.3f) and holdout improved", *g.TrainPre, *g.TrainPost)
		}
		return "accepted", "train and holdout improved"
	case "reject":
		if secret(g.Reason) {
			return "rejected", "holdout did not improve"
		}
		return "rejected", g.Reason
	case "rollback":
		return "rollback", "the operator made this harness the head again"
	case "pending", "interrupted":
		return "interrupted", "the judge was interrupted before it decided"
	}
	if secret(g.Reason) {
		return g.Decision, "(reason not shown: it concerns holdout)"
	}
	return g.Decision, g.Reason
}

// writeHistory writes history/: a folder per earlier candidate of this
// ledger with its diff, component, hypothesis, decision and reason and what
// it fixed and broke on train, and README.md, the table of them all, with
// the rounds the evolver refused before they reached the judge.
func (c Config) writeHistory(ctx context.Context, dir string, l ledger, gens []anchor.Gen) error {
	hashOf := map[int]string{}
	for _, g := range gens {
		hashOf[g.Gen] = g.Hash
	}
	var b strings.Builder
	b.WriteString("# Every earlier candidate of this ledger\n\n")
	b.WriteString("Read this before you choose. Do not propose a rejected hypothesis again unless you say in\n")
	b.WriteString("HYPOTHESIS.md what is different this time. Each folder holds the candidate's diff, its hypothesis,\n")
	b.WriteString("the judge's decision and reason, and per training task what it fixed and what it broke.\n")
	b.WriteString("Held-out results are never shown: only whether the candidate was accepted.\n\n")
	b.WriteString("| gen | decision | component | train fixed | train broken | hypothesis | folder |\n|---|---|---|---|---|---|---|\n")
	n := 0
	for _, g := range gens {
		if g.Decision == "baseline" || g.Decision == "rollback" || g.Parent == nil {
			continue
		}
		n++
		folder := fmt.Sprintf("gen-%03d", g.Gen)
		fixed, broken, err := c.writeCandidate(ctx, filepath.Join(dir, folder), l, g, hashOf[*g.Parent])
		if err != nil {
			return fmt.Errorf("history of generation %d: %w", g.Gen, err)
		}
		verdict, _ := decision(g)
		fmt.Fprintf(&b, "| %d | %s | %s | %s | %s | %s | %s/ |\n", g.Gen, verdict, cell(g.Component, 40), fixed, broken, cell(g.Hypothesis, 120), folder)
	}
	if n == 0 {
		b.WriteString("\nNo candidate yet: this is the first round.\n")
	}
	rounds, err := History(c.Home)
	if err != nil {
		return err
	}
	refused := slices.DeleteFunc(rounds, func(r Round) bool { return r.Decision != "refused" })
	if len(refused) > 0 {
		b.WriteString("\n## Rounds refused before the judge\n\nThese edits never became candidates: the evolver refused them.\n\n")
		b.WriteString("| time | component | reason | hypothesis |\n|---|---|---|---|\n")
		for _, r := range refused {
			fmt.Fprintf(&b, "| %s | %s | %s | %s |\n", r.Time, cell(r.Component, 40), cell(r.Reason, 120), cell(r.Hypothesis, 160))
		}
	}
	_, err = writeParts(dir, "README", ".md", b.String())
	return err
}

// writeCandidate writes one candidate's folder and returns its train fixed
// and broken counts for the table.
func (c Config) writeCandidate(ctx context.Context, dir string, l ledger, g anchor.Gen, parentHash string) (string, string, error) {
	verdict, reason := decision(g)
	var b strings.Builder
	fmt.Fprintf(&b, "# Generation %d: %s\n\n", g.Gen, verdict)
	fmt.Fprintf(&b, "component: %s\nparent: generation %d\ndecision: %s\nreason: %s\n", g.Component, *g.Parent, verdict, reason)
	if g.Goal != "" {
		fmt.Fprintf(&b, "operator's goal: %s\n", g.Goal)
	}
	fmt.Fprintf(&b, "\n## Hypothesis\n\n%s\n", strings.TrimSpace(g.Hypothesis))

	fixedN, brokenN := "-", "-"
	b.WriteString("\n## On the training tasks (parent -> this candidate)\n\n")
	var post map[string]float64
	var err error
	if g.Hash != "" {
		post, err = l.trainScores(ctx, g.Hash)
	}
	if err != nil {
		return "", "", err
	}
	if len(post) == 0 {
		b.WriteString("Not measured: the candidate was stopped before it ran on the training tasks.\n")
	} else {
		pre, err := l.trainScores(ctx, parentHash)
		if err != nil {
			return "", "", err
		}
		var fixed, broken []string
		same := 0
		for _, task := range slices.Sorted(maps.Keys(post)) {
			before, ok := pre[task]
			switch after := post[task]; {
			case !ok:
			case after > before+1e-9:
				fixed = append(fixed, fmt.Sprintf("%s %.2f -> %.2f", task, before, after))
			case after < before-1e-9:
				broken = append(broken, fmt.Sprintf("%s %.2f -> %.2f", task, before, after))
			default:
				same++
			}
		}
		fixedN, brokenN = fmt.Sprint(len(fixed)), fmt.Sprint(len(broken))
		fmt.Fprintf(&b, "fixed (%d):\n", len(fixed))
		for _, f := range fixed {
			fmt.Fprintf(&b, "- %s\n", f)
		}
		fmt.Fprintf(&b, "\nbroken (%d):\n", len(broken))
		for _, f := range broken {
			fmt.Fprintf(&b, "- %s\n", f)
		}
		fmt.Fprintf(&b, "\nunchanged: %d tasks\n", same)
		if g.TrainPre != nil && g.TrainPost != nil {
			fmt.Fprintf(&b, "train mean: %.3f -> %.3f\n", *g.TrainPre, *g.TrainPost)
		}
	}

	diff, err := os.ReadFile(filepath.Join(c.Home, "diffs", g.DiffHash+".diff"))
	switch {
	case g.DiffHash == "" || err != nil:
		b.WriteString("\n## Diff\n\nThe diff is not stored.\n")
	default:
		names, err := writeParts(dir, "diff", ".patch", string(diff))
		if err != nil {
			return "", "", err
		}
		fmt.Fprintf(&b, "\n## Diff\n\n%s\n", strings.Join(names, " "))
	}
	_, err = writeParts(dir, "candidate", ".md", b.String())
	return fixedN, brokenN, err
}
