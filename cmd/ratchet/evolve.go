package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"ratchet/evolve"
	"ratchet/internal/ledgerdb"
	"ratchet/plan"
)

const evolveUsage = `usage: ratchet evolve [--rounds N | --loop | --history | --dry-run] [--goal TEXT] [--harness DIR]
Plays evolve rounds under the anchor: the head harness, run by the evolver's model on a workspace
of complete train traces and every earlier candidate, proposes a one-file edit; anchor apply judges it.

Environment: ANCHOR_HOME (the ledger, default .anchor), ANCHOR_TASKS (the suite, default
the one the ledger froze at init), MODEL_* (the task model), EVOLVE_MODEL_* (the evolver's model, overriding MODEL_*),
EVOLVE_ROUND_BUDGET (tokens per round, default 200000), EVOLVE_DAILY_BUDGET (tokens per UTC day,
default 5000000), EVOLVE_TEST (what the edited harness must pass, default
"go vet ./... && go test -short ./..."). $ANCHOR_HOME/goals.txt queues goals, one a line, one
taken per round; $ANCHOR_HOME/STOP stops the loop before the next round.`

// evolveCommand is ratchet evolve: rounds of the evolver under the anchor.
func evolveCommand(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("evolve", flag.ContinueOnError)
	rounds := fs.Int("rounds", 1, "rounds to play")
	loop := fs.Bool("loop", false, "keep playing rounds until the STOP file, the daily budget or nothing left to learn")
	history := fs.Bool("history", false, "print the log of every round and exit")
	dryRun := fs.Bool("dry-run", false, "write the next round's evolve task, print its path and exit: what the evolver would see")
	goal := fs.String("goal", "", "the operator's goal, put in front of the evolver in every round of this run\n(without it, each round takes the next line of $ANCHOR_HOME/goals.txt)")
	harness := fs.String("harness", "harness", "the harness working copy (the head)")
	gain := fs.Float64("gain", 0.10, "the holdout gain that matters to you (0.10 is ten points): say before the first round when the gate would miss it")
	if err := parseFlags(fs, args, evolveUsage); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usageErr("evolve takes no arguments (got %q); quote a goal: --goal \"...\"", fs.Arg(0))
	}
	if *history {
		c, _ := evolve.FromEnv(*harness)
		return evolve.PrintHistory(c.Home, os.Stdout)
	}
	c, err := evolve.FromEnv(*harness)
	if err != nil {
		return withStatus(exitUsage, err)
	}
	if _, err := os.Stat(filepath.Join(c.Home, "ledger.db")); err != nil {
		return usageErr("no ledger in %s: run anchor init --harness %s first, or set ANCHOR_HOME to the anchor's home", c.Home, *harness)
	}
	if head, err := ledgerdb.Head(ctx, filepath.Join(c.Home, "ledger.db")); err != nil || head == nil {
		return usageErr("the ledger in %s has no head (anchor init refused the suite or did not finish): run anchor init --harness %s first", c.Home, *harness)
	}
	c.Goal = *goal
	if *dryRun {
		dir, err := c.DryRun(ctx)
		if err != nil {
			return err
		}
		fmt.Println(dir)
		return nil
	}
	if !(*gain > 0 && *gain < 1) {
		return usageErr("--gain %g: a gain is a rise of the mean score between 0 and 1 (0.10 is ten points)", *gain)
	}
	if err := gateCanSee(ctx, c.Home, *gain, c.Out); err != nil {
		return err
	}
	return c.Run(ctx, *rounds, *loop)
}

// gateCanSee refuses a suite on which the gate can never accept, and warns
// when it would miss the gain that matters (plan.Sees): rounds spend model
// tokens, and a loop on a suite that can never accept spends them all.
func gateCanSee(ctx context.Context, home string, gain float64, w io.Writer) error {
	warning, err := plan.Sees(ctx, home, gain)
	if err != nil {
		return usageErr("%v", err)
	}
	if warning != "" {
		fmt.Fprintln(w, "evolve: warning: "+warning)
	}
	return nil
}
