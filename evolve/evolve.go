// Package evolve is Layer 2: it turns the head's train runs into a one-file
// candidate edit of the head harness and submits it to `anchor apply`, whose
// acceptance rule decides. The edit is written by the head harness itself,
// run by `anchor run` on an evolve task, so the evolver is sandboxed and
// metered like any run, but with its own model (EVOLVE_MODEL_*) and its own
// ledger. The evolve task is a workspace (task.go): the harness, complete
// traces of every train run of the head (traces.go) and every earlier
// candidate (history.go), where holdout appears only as a decision. It reads
// the ledger read-only (ledger.go). It may import the anchor, plan,
// internal/ledgerdb, internal/show and the harness's trace types, never a
// door or a command; the anchor imports nothing of it (docs/ARCHITECTURE.md,
// "Layout").
package evolve

import (
	"bytes"
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"text/tabwriter"
	"time"

	"ratchet/anchor"
	"ratchet/internal/ledgerdb"
	"ratchet/internal/show"
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
	TestCommand string   // the evolve task's test, run in harness/: the harness must build and pass it
	Goal        string   // the operator's goal for every round of this run; "" takes goals.txt's, one per round
	Out         io.Writer
	play        func(context.Context) Round // plays a round in Run; nil is Round (tests script it)
}

// Round is one line of the evolve log ($ANCHOR_HOME/evolve.jsonl).
type Round struct {
	Time        string   `json:"time"`
	Decision    string   `json:"decision"` // accept, reject, interrupted, refused, nothing, error
	Reason      string   `json:"reason"`
	Hypothesis  string   `json:"hypothesis"`
	Component   string   `json:"component"`
	Goal        string   `json:"goal,omitempty"`
	Gen         *int     `json:"gen,omitempty"`
	RunID       string   `json:"run_id,omitempty"`
	TraceIDs    []string `json:"trace_ids"`
	Tokens      int64    `json:"tokens"`
	TrainPre    *float64 `json:"train_pre,omitempty"`
	TrainPost   *float64 `json:"train_post,omitempty"`
	HoldoutPre  *float64 `json:"holdout_pre,omitempty"`
	HoldoutPost *float64 `json:"holdout_post,omitempty"`
}

// DefaultTest is the evolve task's test, run in the candidate's harness/:
// it must build, pass vet and pass its own tests.
const DefaultTest = "go vet ./... && go test -short ./..."

// FromEnv reads the settings the anchor reads, plus the evolver's own.
func FromEnv(harness string) (Config, error) {
	home := env("ANCHOR_HOME", ".anchor")
	c := Config{Home: home, Tasks: ledgerdb.Suite(home), Harness: harness,
		RoundBudget: 200000, DailyBudget: 5000000, TestCommand: env("EVOLVE_TEST", DefaultTest), Out: os.Stdout}
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

func env(k, def string) string { return cmp.Or(os.Getenv(k), def) }

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

// anchor runs an anchor command on the ledger and returns its standard output.
func (c Config) anchor(ctx context.Context, environ []string, args ...string) ([]byte, error) {
	return c.anchorAt(ctx, c.Home, environ, args...)
}

// evolveHome is the evolver's own ledger, one per evolver model: a ledger
// measures one model for its whole life (I1), the evolver's model is not the
// task model, and the operator may change it between rounds.
func (c Config) evolveHome() string {
	settings := map[string]string{}
	for _, kv := range c.EvolveEnv {
		if k, v, ok := strings.Cut(kv, "="); ok {
			settings[k] = v
		}
	}
	id := anchor.ModelID(cmp.Or(settings["MODEL_API"], "openai"), settings["MODEL_NAME"], settings["MODEL_OPTIONS"])
	sum := sha256.Sum256([]byte(id))
	return filepath.Join(c.Home, "evolve", "ledger-"+hex.EncodeToString(sum[:6]))
}

// anchorAt runs an anchor command on the ledger in home.
func (c Config) anchorAt(ctx context.Context, home string, environ []string, args ...string) ([]byte, error) {
	cmd := exec.CommandContext(ctx, c.Anchor, append([]string{args[0], "--home", home, "--tasks", c.Tasks}, args[1:]...)...)
	// Interrupted, the anchor is asked to stop as Ctrl-C asks it (it marks
	// an apply in progress interrupted), and killed only if it does not.
	cmd.Cancel = func() error { return cmd.Process.Signal(os.Interrupt) }
	cmd.WaitDelay = 30 * time.Second
	var out, errb bytes.Buffer
	cmd.Env, cmd.Stdout, cmd.Stderr = environ, &out, &errb
	if st, err := show.Terminal.Stat(); err == nil && st.Mode()&os.ModeCharDevice != 0 {
		cmd.Stderr = show.Terminal // on a terminal the anchor draws its live progress there (it prints only anchor.Printable text)
	}
	if err := cmd.Run(); err != nil && ctx.Err() != nil {
		return out.Bytes(), fmt.Errorf("anchor %s: interrupted", args[0])
	} else if err != nil {
		return out.Bytes(), fmt.Errorf("anchor %s: %s: %w", args[0], strings.TrimSpace(lastLines(errb.String(), 1)), err)
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
	hopeless := 0 // rounds in a row that could not have been accepted at best
	for i := 0; loop || i < n; i++ {
		if _, err := os.Stat(filepath.Join(c.Home, "STOP")); err == nil {
			fmt.Fprintf(c.Out, "evolve: %s exists; stopping before round %d\n", filepath.Join(c.Home, "STOP"), i+1)
			return nil
		}
		if spent := c.spentToday(); spent >= c.DailyBudget {
			fmt.Fprintf(c.Out, "evolve: today's budget is spent (%d of %d tokens); stopping\n", spent, c.DailyBudget)
			return nil
		}
		play := c.play
		if play == nil {
			play = c.Round
		}
		r := play(ctx)
		if err := c.record(r); err != nil {
			return err
		}
		fmt.Fprintln(c.Out, summary(r))
		if ctx.Err() != nil {
			return fmt.Errorf("interrupted in round %d; ratchet log shows what the anchor recorded", i+1)
		}
		if r.Decision == "nothing" {
			return nil
		}
		if r.Decision == "error" && !loop {
			return errors.New(r.Reason)
		}
		if r.Decision == "reject" && strings.Contains(r.Reason, bestCaseFails) {
			hopeless++
		} else {
			hopeless = 0
		}
		if loop && hopeless >= HopelessRounds {
			fmt.Fprintf(c.Out, "evolve: the last %d rounds could not have been accepted even had every task left "+
				"scored 1; this suite's holdout cannot show a gain from this head (ratchet plan --gain shows what "+
				"it can detect); stopping\n", hopeless)
			return nil
		}
	}
	return nil
}

// HopelessRounds is how many rounds in a row that could not have been
// accepted even at best (the anchor's screen says so: bestCaseFails) stop
// ratchet evolve --loop: each spent an evolver's and a model's tokens on a
// suite that, from this head, cannot show a gain.
const HopelessRounds = 3

// bestCaseFails is the anchor's screen's reason for a candidate that would
// be rejected even if every unit it had not run yet scored 1.
const bestCaseFails = "cannot pass even if every unit left scored 1"

func summary(r Round) string {
	f := func(p *float64) string {
		if p == nil {
			return "-"
		}
		return fmt.Sprintf("%.3f", *p)
	}
	s := fmt.Sprintf("round: %s (%s) component=%s train %s -> %s holdout %s -> %s tokens=%d\n  hypothesis: %s",
		clip(r.Decision, 20), clip(r.Reason, 500), clip(cmp.Or(r.Component, "-"), 200), f(r.TrainPre), f(r.TrainPost), f(r.HoldoutPre), f(r.HoldoutPost),
		r.Tokens, clip(cmp.Or(r.Hypothesis, "-"), 500))
	if r.Goal != "" {
		s += "\n  goal: " + clip(r.Goal, 500)
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
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%d\t%s\t%s\n", clip(r.Time, 40), clip(r.Decision, 20), gen, clip(cmp.Or(r.Component, "-"), 60), r.Tokens,
			clip(r.Hypothesis, 60), clip(r.Reason, 70))
	}
	return tw.Flush()
}

// clip is how evolve shows a field an agent may have written (a hypothesis,
// a component, a reason): one printable line of at most n runes.
func clip(s string, n int) string {
	return show.Line(strings.Join(strings.Fields(s), " "), n)
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

// Round plays one round and reports it; failures are reported in the round.
func (c Config) Round(ctx context.Context) Round {
	r := Round{Time: time.Now().UTC().Format(time.RFC3339)}
	if err := c.round(ctx, &r); err != nil && ctx.Err() != nil {
		r.Decision, r.Reason = "interrupted", "interrupted by the operator; the ledger has what the anchor finished"
	} else if err != nil {
		r.Decision, r.Reason = "error", err.Error()
	}
	return r
}

// read gathers what a round needs from the ledger: the generations, the
// head (which the harness working copy must be) and the head's train runs.
// It reads train runs only: holdout reaches the evolver as decisions alone.
func (c Config) read(ctx context.Context) (workspace, error) {
	var w workspace
	var err error
	if w.ledger, err = c.openLedger(ctx); err != nil {
		return w, err
	}
	if w.gens, err = w.ledger.gens(ctx); err != nil {
		return w, err
	}
	if w.head, err = head(w.gens); err != nil {
		return w, err
	}
	if hash, err := c.anchor(ctx, c.TaskEnv, "snapshot", c.Harness); err != nil || strings.TrimSpace(string(hash)) != w.head.Hash {
		return w, fmt.Errorf("%s is not the head generation's snapshot (%v); restore it with anchor rollback %d", c.Harness, err, w.head.Gen)
	}
	if w.runs, err = w.ledger.trainRuns(ctx, w.head.Hash); err != nil {
		return w, fmt.Errorf("read the head's train runs: %w", err)
	}
	for _, run := range w.runs {
		if run.Score < 1 {
			w.failed = append(w.failed, run.ID)
		}
	}
	return w, nil
}

// taskDir is where a round writes its evolve task; the last round's stays
// there for people to read.
func (c Config) taskDir(name string) string { return filepath.Join(c.Home, "evolve", name) }

// DryRun writes the evolve task the next round would give the evolver,
// without running it or taking a goal from the queue, and returns its path.
func (c Config) DryRun(ctx context.Context) (string, error) {
	w, err := c.read(ctx)
	if err != nil {
		return "", err
	}
	goal, err := c.nextGoal(false)
	if err != nil {
		return "", err
	}
	dir := c.taskDir("dry-run")
	if err := c.buildTask(ctx, dir, w, goal); err != nil {
		return "", fmt.Errorf("build the evolve task: %w", err)
	}
	return dir, nil
}

func (c Config) round(ctx context.Context, r *Round) error {
	w, err := c.read(ctx)
	if err != nil {
		return err
	}
	if len(w.failed) == 0 {
		r.Decision, r.Reason = "nothing", "no failed train runs for the head: run anchor eval --split train, or there is nothing to learn"
		return nil
	}
	for _, run := range w.runs {
		r.TraceIDs = append(r.TraceIDs, run.ID)
	}
	if r.Goal, err = c.nextGoal(true); err != nil {
		return err
	}
	task := c.taskDir("task")
	if err := c.buildTask(ctx, task, w, r.Goal); err != nil {
		return fmt.Errorf("build the evolve task: %w", err)
	}
	if err := os.MkdirAll(filepath.Join(c.Home, "tmp"), 0o755); err != nil {
		return err
	}
	work, err := os.MkdirTemp(filepath.Join(c.Home, "tmp"), "evolve-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(work)
	keep := filepath.Join(work, "result")
	out, err := c.anchorAt(ctx, c.evolveHome(), c.EvolveEnv, "run", "--harness", c.Harness, "--task", task, "--keep", keep, "--force",
		"--budget", fmt.Sprint(c.RoundBudget))
	var er anchor.Run
	if err == nil {
		err = json.Unmarshal(out, &er)
	}
	if err != nil {
		return fmt.Errorf("evolve run: %w", err)
	}
	r.RunID, r.Tokens = er.ID, er.TokensIn+er.TokensOut
	hyp, _ := os.ReadFile(filepath.Join(keep, "HYPOTHESIS.md"))
	r.Hypothesis = clip(string(hyp), 500)

	changed, err := changedFiles(c.Harness, filepath.Join(keep, "harness"))
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
	diff, err := makeDiff(work, c.Harness, filepath.Join(keep, "harness"), r.Component)
	if err != nil {
		return err
	}
	cand := map[string]any{"diff": "candidate.diff", "component": r.Component, "hypothesis": cmp.Or(r.Hypothesis, "(none given)"), "trace_ids": r.TraceIDs}
	if r.Goal != "" {
		cand["goal"] = r.Goal
	}
	candJSON, _ := json.Marshal(cand)
	if err := os.WriteFile(filepath.Join(work, "candidate.diff"), diff, 0o644); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(work, "candidate.json"), candJSON, 0o644); err != nil {
		return err
	}
	// anchor apply exits 1 on a rejection: a result of the round, not a
	// failure, when it is the new generation's decision.
	prior, err := w.ledger.gens(ctx)
	if err != nil {
		return fmt.Errorf("read the ledger before apply: %v", err)
	}
	_, applyErr := c.anchor(ctx, c.TaskEnv, "apply", "--candidate", filepath.Join(work, "candidate.json"))
	var exit *exec.ExitError
	if applyErr != nil && !(errors.As(applyErr, &exit) && exit.ExitCode() == 1) {
		return applyErr
	}
	gens, err := w.ledger.gens(ctx)
	if err != nil || len(gens) == 0 {
		return fmt.Errorf("read the ledger after apply: %v", err)
	}
	g := gens[len(gens)-1]
	if applyErr != nil && (g.Decision != "reject" || len(gens) == len(prior)) {
		return applyErr
	}
	r.Gen, r.Decision, r.Reason = &g.Gen, g.Decision, g.Reason
	r.TrainPre, r.TrainPost, r.HoldoutPre, r.HoldoutPost = g.TrainPre, g.TrainPost, g.HoldoutPre, g.HoldoutPost
	r.Tokens += g.Tokens
	return nil
}
