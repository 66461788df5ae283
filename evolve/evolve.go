// Package evolve is Layer 2: it turns failed train traces into a one-file
// candidate edit of the head harness and submits it to `anchor apply`, whose
// acceptance rule decides. The edit is written by the head harness itself,
// run by `anchor run` on an evolve task (a copy of the harness plus the
// traces), so the evolver is sandboxed and metered like any run, but with its
// own model (EVOLVE_MODEL_*).
package evolve

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"text/tabwriter"
	"time"
)

// Config is where the evolver works and how it calls the anchor.
type Config struct {
	Anchor      string   // the anchor binary
	Home, Tasks string   // ANCHOR_HOME and ANCHOR_TASKS, shared with the anchor
	Harness     string   // the harness working copy (the head)
	TaskEnv     []string // environment of the measured model (MODEL_*)
	EvolveEnv   []string // the same with EVOLVE_MODEL_* in place of MODEL_*
	RoundBudget int64    // tokens for one evolve run
	DailyBudget int64    // tokens for all rounds of one UTC day
	MaxTraces   int      // failed runs shown per round
	TestCommand string   // the evolve task's test: the harness copy must build and pass it
	Out         io.Writer
}

// Round is one line of the evolve log ($ANCHOR_HOME/evolve.jsonl).
type Round struct {
	Time        string   `json:"time"`
	Decision    string   `json:"decision"` // accept, reject, refused, nothing, error
	Reason      string   `json:"reason"`
	Hypothesis  string   `json:"hypothesis"`
	Component   string   `json:"component"`
	Gen         *int     `json:"gen,omitempty"`
	RunID       string   `json:"run_id,omitempty"`
	TraceIDs    []string `json:"trace_ids"`
	Tokens      int64    `json:"tokens"`
	TrainPre    *float64 `json:"train_pre,omitempty"`
	TrainPost   *float64 `json:"train_post,omitempty"`
	HoldoutPre  *float64 `json:"holdout_pre,omitempty"`
	HoldoutPost *float64 `json:"holdout_post,omitempty"`
}

// FromEnv reads the settings the anchor reads, plus the evolver's own.
func FromEnv(harness string) (Config, error) {
	c := Config{Home: env("ANCHOR_HOME", ".anchor"), Tasks: env("ANCHOR_TASKS", "tasks/example"), Harness: harness,
		RoundBudget: 200000, DailyBudget: 5000000, MaxTraces: 4, TestCommand: env("EVOLVE_TEST", "go vet ./... && go test -short ./..."), Out: os.Stdout}
	for _, v := range []struct {
		name string
		dst  *int64
	}{{"EVOLVE_ROUND_BUDGET", &c.RoundBudget}, {"EVOLVE_DAILY_BUDGET", &c.DailyBudget}} {
		if s := os.Getenv(v.name); s != "" {
			if _, err := fmt.Sscan(s, v.dst); err != nil || *v.dst <= 0 {
				return c, fmt.Errorf("%s=%q is not a positive number of tokens", v.name, s)
			}
		}
	}
	var err error
	if c.Anchor, err = findAnchor(); err != nil {
		return c, err
	}
	c.TaskEnv, c.EvolveEnv = os.Environ(), evolveEnv(os.Environ())
	return c, nil
}

func env(k, def string) string {
	if v := os.Getenv(k); v != "" {
		return v
	}
	return def
}

// evolveEnv replaces every MODEL_* setting by its EVOLVE_MODEL_* override.
func evolveEnv(environ []string) []string {
	over := map[string]string{}
	for _, kv := range environ {
		if k, v, _ := strings.Cut(kv, "="); strings.HasPrefix(k, "EVOLVE_MODEL_") {
			over[strings.TrimPrefix(k, "EVOLVE_")] = v
		}
	}
	out := []string{}
	for _, kv := range environ {
		if k, _, _ := strings.Cut(kv, "="); over[k] == "" || !strings.HasPrefix(k, "MODEL_") {
			out = append(out, kv)
		}
	}
	for k, v := range over {
		out = append(out, k+"="+v)
	}
	return out
}

// findAnchor looks for the anchor binary beside this one, then on PATH.
func findAnchor() (string, error) {
	if self, err := os.Executable(); err == nil {
		if p := filepath.Join(filepath.Dir(self), "anchor"); isExec(p) {
			return p, nil
		}
	}
	if p, err := exec.LookPath("anchor"); err == nil {
		return p, nil
	}
	return "", errors.New("cannot find the anchor binary beside ratchet or on PATH; run make build, or put bin/ on PATH")
}

func isExec(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.Mode().IsRegular() && st.Mode()&0o111 != 0
}

// anchor runs an anchor command and returns its standard output.
func (c Config) anchor(ctx context.Context, environ []string, args ...string) ([]byte, error) {
	cmd := exec.CommandContext(ctx, c.Anchor, append([]string{args[0], "--home", c.Home, "--tasks", c.Tasks}, args[1:]...)...)
	var out, errb bytes.Buffer
	cmd.Env, cmd.Stdout, cmd.Stderr = environ, &out, &errb
	if err := cmd.Run(); err != nil {
		return out.Bytes(), fmt.Errorf("anchor %s: %s", args[0], strings.TrimSpace(lastLines(errb.String(), 1)+" "+err.Error()))
	}
	return out.Bytes(), nil
}

func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return strings.Join(lines[max(0, len(lines)-n):], "\n")
}

// ErrStop is returned when the STOP file or the daily budget halts the loop.
var ErrStop = errors.New("evolve: stopped")

// Run plays rounds: n of them, or until stopped when loop is set. Before each
// round it checks the STOP file ($ANCHOR_HOME/STOP) and the daily budget.
func (c Config) Run(ctx context.Context, n int, loop bool) error {
	for i := 0; loop || i < n; i++ {
		if _, err := os.Stat(filepath.Join(c.Home, "STOP")); err == nil {
			fmt.Fprintf(c.Out, "evolve: %s exists; stopping before round %d\n", filepath.Join(c.Home, "STOP"), i+1)
			return nil
		}
		if spent := c.spentToday(); spent >= c.DailyBudget {
			fmt.Fprintf(c.Out, "evolve: today's budget is spent (%d of %d tokens); stopping\n", spent, c.DailyBudget)
			return nil
		}
		r := c.Round(ctx)
		if err := c.record(r); err != nil {
			return err
		}
		fmt.Fprintln(c.Out, summary(r))
		if r.Decision == "nothing" || ctx.Err() != nil {
			return ctx.Err()
		}
		if r.Decision == "error" && !loop {
			return errors.New(r.Reason)
		}
	}
	return nil
}

func summary(r Round) string {
	f := func(p *float64) string {
		if p == nil {
			return "-"
		}
		return fmt.Sprintf("%.3f", *p)
	}
	return fmt.Sprintf("round: %s (%s) component=%s train %s -> %s holdout %s -> %s tokens=%d\n  hypothesis: %s",
		r.Decision, r.Reason, cmp(r.Component, "-"), f(r.TrainPre), f(r.TrainPost), f(r.HoldoutPre), f(r.HoldoutPost), r.Tokens, cmp(r.Hypothesis, "-"))
}

func cmp(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

func (c Config) logPath() string { return filepath.Join(c.Home, "evolve.jsonl") }

func (c Config) record(r Round) error {
	f, err := os.OpenFile(c.logPath(), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return fmt.Errorf("open the evolve log: %w", err)
	}
	defer f.Close()
	b, _ := json.Marshal(r)
	_, err = f.Write(append(b, '\n'))
	return err
}

// History reads the evolve log.
func History(home string) ([]Round, error) {
	b, err := os.ReadFile(filepath.Join(home, "evolve.jsonl"))
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	var rounds []Round
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		var r Round
		if json.Unmarshal([]byte(line), &r) == nil {
			rounds = append(rounds, r)
		}
	}
	return rounds, err
}

// PrintHistory writes the evolve log as a table.
func PrintHistory(home string, w io.Writer) error {
	rounds, err := History(home)
	if err != nil {
		return err
	}
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "TIME\tDECISION\tGEN\tCOMPONENT\tTOKENS\tHYPOTHESIS\tREASON")
	for _, r := range rounds {
		gen := "-"
		if r.Gen != nil {
			gen = fmt.Sprint(*r.Gen)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%d\t%s\t%s\n", r.Time, r.Decision, gen, cmp(r.Component, "-"), r.Tokens, clip(r.Hypothesis, 60), clip(r.Reason, 70))
	}
	return tw.Flush()
}

func clip(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > n {
		return s[:n-1] + "…"
	}
	return s
}

func (c Config) spentToday() (n int64) {
	rounds, _ := History(c.Home)
	today := time.Now().UTC().Format("2006-01-02")
	for _, r := range rounds {
		if strings.HasPrefix(r.Time, today) {
			n += r.Tokens
		}
	}
	return n
}

// run is the part of an anchor run record the evolver reads.
type run struct {
	ID        string  `json:"id"`
	TaskID    string  `json:"task_id"`
	Score     float64 `json:"score"`
	TokensIn  int64   `json:"tokens_in"`
	TokensOut int64   `json:"tokens_out"`
	TracePath string  `json:"trace_path"`
	Error     string  `json:"error"`
}

// gen is the part of an anchor log entry the evolver reads.
type gen struct {
	Gen                                          int
	Hash, Decision, Reason                       string
	Head                                         bool
	TrainPre, TrainPost, HoldoutPre, HoldoutPost *float64
	Tokens                                       int64
}

func (c Config) log(ctx context.Context) ([]gen, error) {
	out, err := c.anchor(ctx, c.TaskEnv, "log", "--json")
	var gens []gen
	if err == nil {
		err = json.Unmarshal(out, &gens)
	}
	return gens, err
}

// Round plays one round and reports it; failures are reported in the round.
func (c Config) Round(ctx context.Context) Round {
	r := Round{Time: time.Now().UTC().Format(time.RFC3339)}
	if err := c.round(ctx, &r); err != nil {
		r.Decision, r.Reason = "error", err.Error()
	}
	return r
}

func (c Config) round(ctx context.Context, r *Round) error {
	gens, err := c.log(ctx)
	if err != nil {
		return err
	}
	i := slices.IndexFunc(gens, func(g gen) bool { return g.Head })
	if i < 0 {
		return errors.New("the ledger has no head; run anchor init first")
	}
	head := gens[i]
	if hash, err := c.anchor(ctx, c.TaskEnv, "snapshot", c.Harness); err != nil || strings.TrimSpace(string(hash)) != head.Hash {
		return fmt.Errorf("%s is not the head generation's snapshot (%v); restore it with anchor rollback %d", c.Harness, err, head.Gen)
	}
	out, err := c.anchor(ctx, c.TaskEnv, "traces", "--split", "train", "--failed", "--json")
	var failed []run
	if err == nil {
		err = json.Unmarshal(out, &failed)
	}
	if err != nil {
		return err
	}
	if len(failed) == 0 {
		r.Decision, r.Reason = "nothing", "no failed train runs for the head: run anchor eval --split train, or there is nothing to learn"
		return nil
	}
	slices.SortStableFunc(failed, func(a, b run) int { return cmpFloat(a.Score, b.Score) })
	failed = failed[:min(len(failed), c.MaxTraces)]
	for _, f := range failed {
		r.TraceIDs = append(r.TraceIDs, f.ID)
	}

	work, err := os.MkdirTemp(filepath.Join(c.Home, "tmp"), "evolve-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(work)
	task := filepath.Join(work, "evolve-task")
	if err := c.buildTask(task, failed); err != nil {
		return fmt.Errorf("build the evolve task: %w", err)
	}
	keep := filepath.Join(work, "result")
	out, err = c.anchor(ctx, c.EvolveEnv, "run", "--harness", head.Hash, "--task", task, "--keep", keep, "--force",
		"--budget", fmt.Sprint(c.RoundBudget))
	var er run
	if err == nil {
		err = json.Unmarshal(out, &er)
	}
	if err != nil {
		return fmt.Errorf("evolve run: %w", err)
	}
	r.RunID, r.Tokens = er.ID, er.TokensIn+er.TokensOut
	hyp, _ := os.ReadFile(filepath.Join(keep, "HYPOTHESIS.md"))
	r.Hypothesis = clip(string(hyp), 500)

	changed, err := changedFiles(c.Harness, keep)
	if err != nil {
		return err
	}
	switch {
	case len(changed) == 0:
		r.Decision, r.Reason = "refused", "the evolve run changed no harness file"
		return nil
	case len(changed) > 1:
		r.Decision, r.Reason = "refused", "the evolve run changed "+fmt.Sprint(len(changed))+" files ("+strings.Join(changed, ", ")+"); a candidate changes exactly one"
		return nil
	case er.Score < 1:
		r.Decision, r.Reason = "refused", fmt.Sprintf("the edited harness fails its own build or tests (score %.2f) %s", er.Score, er.Error)
		r.Component = changed[0]
		return nil
	}
	r.Component = changed[0]
	diff, err := makeDiff(work, c.Harness, keep, r.Component)
	if err != nil {
		return err
	}
	cand, _ := json.Marshal(map[string]any{"diff": "candidate.diff", "component": r.Component, "hypothesis": cmp(r.Hypothesis, "(none given)"), "trace_ids": r.TraceIDs})
	if err := os.WriteFile(filepath.Join(work, "candidate.diff"), diff, 0o644); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(work, "candidate.json"), cand, 0o644); err != nil {
		return err
	}
	if _, err := c.anchor(ctx, c.TaskEnv, "apply", "--candidate", filepath.Join(work, "candidate.json")); err != nil {
		return err
	}
	if gens, err = c.log(ctx); err != nil || len(gens) == 0 {
		return fmt.Errorf("read the ledger after apply: %v", err)
	}
	g := gens[len(gens)-1]
	r.Gen, r.Decision, r.Reason = &g.Gen, g.Decision, g.Reason
	r.TrainPre, r.TrainPost, r.HoldoutPre, r.HoldoutPost = g.TrainPre, g.TrainPost, g.HoldoutPre, g.HoldoutPost
	r.Tokens += g.Tokens
	return nil
}

func cmpFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}
