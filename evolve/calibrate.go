package evolve

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"ratchet/anchor"
	"ratchet/plan"
)

// Calibration is the noise floor measured: neutral variants of the head
// (same meaning, other bytes) evaluated against it on holdout with the live
// model, next to what ratchet plan --aa predicts for the same gate. A line
// of $ANCHOR_HOME/calibration.jsonl.
type Calibration struct {
	Time        string    `json:"time"`
	HeadGen     int       `json:"head_gen"`
	HeadHash    string    `json:"head_hash"`
	Alpha       float64   `json:"alpha"`
	Variants    []Variant `json:"variants"`
	Accepted    int       `json:"accepted"`          // variants whose holdout side of the gate passed
	Rate        float64   `json:"false_accept_rate"` // measured: accepted / variants
	StdErr      float64   `json:"std_err"`
	Predicted   float64   `json:"predicted_rate"` // ratchet plan --aa: the holdout side alone
	PredictedSE float64   `json:"predicted_std_err"`
	AATrials    int       `json:"aa_trials"`
	Tokens      int64     `json:"tokens"`
}

// Variant is one neutral variant's holdout evidence against the head.
type Variant struct {
	Hash     string          `json:"harness_hash"`
	Edit     string          `json:"edit"`
	Delta    float64         `json:"holdout_delta"` // post - pre, over groups as the gate counts
	Evidence anchor.Evidence `json:"evidence"`
	Accepted bool            `json:"accepted"`
}

// neutralEdits are mechanical edits of a system prompt that keep its
// meaning: whitespace and a sentence that instructs nothing. Variant i
// takes edit i mod 4, repeated i/4+1 times, so no two are the same.
var neutralEdits = []struct {
	name string
	edit func(prompt string, i int) string
}{
	{"a blank line at the end", func(p string, i int) string { return p + strings.Repeat("\n", i/4+1) }},
	{"a note that instructs nothing", func(p string, i int) string {
		return fmt.Sprintf("%s\n(Note %d: this line changes nothing.)\n", strings.TrimRight(p, "\n"), i)
	}},
	{"paragraphs split by two blank lines", func(p string, i int) string {
		return strings.Replace(p, "\n\n", "\n\n"+strings.Repeat("\n", i/4+1), 1)
	}},
	{"trailing spaces on the first line", func(p string, i int) string {
		first, rest, _ := strings.Cut(p, "\n")
		return first + strings.Repeat(" ", i/4+1) + "\n" + rest
	}},
}

// Calibrate evaluates n neutral variants of the head's system_prompt.md, or
// the system prompts in the files of variants (a folder) when given, against
// the head on holdout through the anchor, and decides each through the
// anchor's own gate (its holdout side) under the ledger's alpha, at one
// look: its variants run the first K repeats, as `anchor eval` does, so on a
// ledger of two looks it measures the single look at alpha, and plan
// predicts that. It appends the result, with ratchet plan --aa's
// prediction, to calibration.jsonl.
func (c Config) Calibrate(ctx context.Context, n int, variants string) (*Calibration, error) {
	p, err := plan.Plan(ctx, plan.Config{Home: c.Home, AA: 4000, Trials: 1, Seed: 1, Looks: 1})
	if err != nil {
		return nil, err
	}
	out, err := c.anchor(ctx, c.TaskEnv, "eval", "--harness", p.HarnessHash, "--split", "holdout", "--json")
	if err != nil {
		return nil, err
	}
	head, err := evalRuns(out)
	if err != nil {
		return nil, err
	}
	files, err := anchor.ReadTree(filepath.Join(c.Home, "snapshots", p.HarnessHash), true)
	if err != nil {
		return nil, fmt.Errorf("read the head's snapshot: %w", err)
	}
	prompts, err := neutralPrompts(string(files["system_prompt.md"]), n, variants)
	if err != nil {
		return nil, err
	}
	cal := &Calibration{Time: time.Now().UTC().Format(time.RFC3339), HeadGen: *p.HeadGen, HeadHash: p.HarnessHash, Alpha: p.Alpha,
		Predicted: p.AA.HoldoutPass, AATrials: p.AA.Trials}
	cal.PredictedSE = math.Sqrt(cal.Predicted * (1 - cal.Predicted) / float64(cal.AATrials))
	for i, v := range prompts {
		dir, err := os.MkdirTemp("", "ratchet-calibrate-")
		if err != nil {
			return nil, err
		}
		files["system_prompt.md"] = []byte(v.prompt)
		err = anchor.WriteTree(dir, files)
		var hash []byte
		if err == nil {
			hash, err = c.anchor(ctx, c.TaskEnv, "snapshot", dir)
		}
		os.RemoveAll(dir) // a scratch copy, snapshotted already: what is left costs disk, not a result
		if err == nil {
			out, err = c.anchor(ctx, c.TaskEnv, "eval", "--harness", strings.TrimSpace(string(hash)), "--split", "holdout", "--json")
		}
		var runs []anchor.Run
		if err == nil {
			runs, err = evalRuns(out)
		}
		if err != nil {
			return cal, fmt.Errorf("variant %d (%s): %w", i, v.name, err)
		}
		e, reason := anchor.GateRuns("holdout", head, runs, p.Alpha)
		cal.Variants = append(cal.Variants, Variant{Hash: strings.TrimSpace(string(hash)), Edit: v.name, Delta: e.Post - e.Pre,
			Evidence: e, Accepted: reason == ""})
		for _, r := range runs {
			if !r.Cached {
				cal.Tokens += r.TokensIn + r.TokensOut
			}
		}
		if reason == "" {
			cal.Accepted++
		}
	}
	// The prediction is planned again now: the variants' runs show how far
	// each task moves from one harness to the next, which the head's one run
	// per task cannot (plan fits its prior to every harness's runs).
	if after, err := plan.Plan(ctx, plan.Config{Home: c.Home, AA: 4000, Trials: 1, Seed: 1, Looks: 1}); err == nil {
		cal.Predicted = after.AA.HoldoutPass
		cal.PredictedSE = math.Sqrt(cal.Predicted * (1 - cal.Predicted) / float64(cal.AATrials))
	}
	m := float64(len(cal.Variants))
	cal.Rate = float64(cal.Accepted) / m
	cal.StdErr = math.Sqrt(max(cal.Rate*(1-cal.Rate), 0.25/m) / m) // never 0: a rate of 0 of m is not certainty
	return cal, appendLine(filepath.Join(c.Home, "calibration.jsonl"), cal)
}

type neutralPrompt struct{ name, prompt string }

// neutralPrompts is n mechanical variants of prompt, or the operator's
// variants: every file of the folder variants, one whole system prompt each.
func neutralPrompts(prompt string, n int, variants string) ([]neutralPrompt, error) {
	var out []neutralPrompt
	if variants != "" {
		names, _ := filepath.Glob(filepath.Join(variants, "*"))
		for _, name := range names {
			b, err := os.ReadFile(name)
			if err != nil {
				return nil, fmt.Errorf("read a variant: %w", err)
			}
			out = append(out, neutralPrompt{"the operator's " + filepath.Base(name), string(b)})
		}
		if len(out) == 0 {
			return nil, fmt.Errorf("no variants in %s: put one whole system prompt per file there", variants)
		}
		return out, nil
	}
	if n < 1 {
		return nil, errors.New("--n must be at least 1")
	}
	seen := map[string]bool{prompt: true}
	for i := 0; len(out) < n; i++ {
		e := neutralEdits[i%len(neutralEdits)]
		if v := e.edit(prompt, i); !seen[v] {
			seen[v] = true
			out = append(out, neutralPrompt{e.name, v})
		}
	}
	return out, nil
}

// evalRuns reads the runs of anchor eval --json.
func evalRuns(out []byte) ([]anchor.Run, error) {
	var e struct {
		Runs []anchor.Run `json:"runs"`
	}
	if err := json.Unmarshal(out, &e); err != nil {
		return nil, fmt.Errorf("read anchor eval --json: %w", err)
	}
	if len(e.Runs) == 0 {
		return nil, errors.New("anchor eval --json printed no runs")
	}
	return e.Runs, nil
}

// appendLine appends v as a JSON line to the file at path.
func appendLine(path string, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	f, err := os.OpenFile(path, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
	if err != nil {
		return err
	}
	_, err = f.Write(append(b, '\n'))
	return errors.Join(err, f.Close())
}

// LastCalibration reads the newest line of calibration.jsonl in home, nil
// when there is none.
func LastCalibration(home string) (*Calibration, error) {
	b, err := os.ReadFile(filepath.Join(home, "calibration.jsonl"))
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	var c Calibration
	if err := json.Unmarshal([]byte(lines[len(lines)-1]), &c); err != nil {
		return nil, fmt.Errorf("read %s: %w", filepath.Join(home, "calibration.jsonl"), err)
	}
	return &c, nil
}

// WriteText prints the calibration for people.
func (cal *Calibration) WriteText(w io.Writer) {
	var sorted []float64
	for _, v := range cal.Variants {
		sorted = append(sorted, v.Delta)
	}
	slices.Sort(sorted)
	deltas := []string{}
	for _, d := range sorted {
		deltas = append(deltas, fmt.Sprintf("%+.3f", d))
	}
	fmt.Fprintf(w, "calibration of generation %d (%.12s) on holdout, alpha %g: %d neutral variants, %d tokens\n",
		cal.HeadGen, cal.HeadHash, cal.Alpha, len(cal.Variants), cal.Tokens)
	fmt.Fprintf(w, "holdout deltas: %s\n", strings.Join(deltas, " "))
	fmt.Fprintf(w, "measured false-accept rate (holdout side): %d of %d = %.3f ± %.3f\n", cal.Accepted, len(cal.Variants), cal.Rate, cal.StdErr)
	fmt.Fprintf(w, "ratchet plan --aa predicts %.3f ± %.3f (%d simulated candidates)\n", cal.Predicted, cal.PredictedSE, cal.AATrials)
	fmt.Fprintln(w, "(plan draws the head afresh in every trial; here its cached runs are fixed, so a head that scored above its"+
		" rates by luck meets fewer accepts than predicted)")
}
