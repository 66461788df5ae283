package main

import (
	"cmp"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"

	"ratchet/anchor"
	"ratchet/plan"
)

const planUsage = `usage: ratchet plan [flags]
What gain the acceptance gate can detect on this suite: power, holdout size and
repeats needed, from the head's runs or from --p. --gain names the gain that
matters to you (ratchet plan --gain 0.05 --tasks DIR --p 0.5: what it takes
to see five points). Environment: ANCHOR_HOME sets --home.`

// planCommand is ratchet plan: what gain the gate can detect on a suite.
func planCommand(ctx context.Context, args []string) error {
	return planTo(ctx, args, os.Stdout)
}

// planTo is ratchet plan printing to w.
func planTo(ctx context.Context, args []string, w io.Writer) error {
	fs := flag.NewFlagSet("plan", flag.ContinueOnError)
	var c plan.Config
	fs.StringVar(&c.Home, "home", cmp.Or(os.Getenv("ANCHOR_HOME"), ".anchor"), "the anchor's home, holding ledger.db (ANCHOR_HOME)")
	fs.IntVar(&c.Trials, "trials", 2000, "simulated applies per power figure")
	fs.IntVar(&c.ScreenTrials, "screen-trials", 200, "simulated screened applies per figure of the screen's cost and power (the slowest part)")
	fs.Uint64Var(&c.Seed, "seed", 1, "seed of the simulation; the same seed gives the same figures")
	fs.IntVar(&c.AA, "aa", 0, "play the A/A game N times: candidates that change nothing, drawn from the head's pass rates")
	fs.Float64Var(&c.Power, "power", 0.8, "target power")
	fs.Float64Var(&c.P, "p", 0, "plan with every task passing at this rate instead of the head's estimates (0.5: a coin-flip baseline)")
	fs.IntVar(&c.Holdout, "holdout", 0, "plan for this many holdout tasks (with --p the ledger is then not read)")
	fs.IntVar(&c.Train, "train", 0, "plan for this many train tasks")
	fs.IntVar(&c.K, "repeats", 0, "plan for K repeats per task (default: the ledger's, else 1)")
	fs.Float64Var(&c.Alpha, "alpha", 0, "plan for this alpha (default: the ledger's, else 0.05)")
	fs.IntVar(&c.Looks, "looks", 0, "plan for 1 or 2 looks at the holdout (default: the ledger's, else 2, as anchor init records)")
	fs.IntVar(&c.Survey, "survey", 0, "plan for a ledger begun by anchor init --survey N: the screen's order from N runs of the baseline per task, 1 for none (default: the ledger's runs)")
	fs.Func("gain", "plan for this holdout gain, in mean score (0.10 is ten points); repeat the flag for more (default 0.05, 0.10, 0.20)",
		func(v string) error {
			g, err := strconv.ParseFloat(v, 64)
			if err != nil || !(g > 0 && g < 1) {
				return fmt.Errorf("want a rise of the mean score between 0 and 1, like 0.10 for ten points")
			}
			c.Gains = append(c.Gains, g)
			return nil
		})
	suite := fs.String("tasks", "", "take the split sizes and the task groups from this suite folder (<split>/<id>/task.toml)")
	asJSON := fs.Bool("json", false, "print JSON")
	if err := parseFlags(fs, args, planUsage); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usageErr("unexpected argument %q: ratchet plan takes only flags", fs.Arg(0))
	}
	if *suite != "" { // the split sizes and each task's group: the gate counts groups
		for split, n := range map[string]*int{"train": &c.Train, "holdout": &c.Holdout} {
			tasks, _ := filepath.Glob(filepath.Join(*suite, split, "*", "task.toml"))
			if len(tasks) == 0 {
				return usageErr("no %s tasks in %s: --tasks wants a suite folder with %s/<id>/task.toml", split, *suite, split)
			}
			*n = len(tasks)
			groups := &c.TrainGroups
			if split == "holdout" {
				groups = &c.HoldoutGroups
			}
			for _, f := range tasks {
				t, err := anchor.LoadTask(filepath.Dir(f))
				if err != nil {
					return usageErr("--tasks: %w", err)
				}
				*groups = append(*groups, t.Group)
			}
		}
	}
	r, err := plan.Plan(ctx, c)
	if err != nil {
		return err
	}
	if *asJSON {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(r)
	}
	return r.WriteText(w)
}
