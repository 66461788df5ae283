package main

import (
	"context"
	"encoding/json"
	"flag"
	"os"

	"ratchet/evolve"
)

const calibrateUsage = `usage: ratchet calibrate [--n N] [--variants DIR] [--json]
Measures the gate's noise floor with the live model: N neutral variants of the head's
system prompt (whitespace, a sentence that instructs nothing; or the whole prompts in
the files of --variants DIR) are evaluated on holdout through the anchor and judged by
the gate's holdout side against the head. Prints the holdout deltas and the measured
false-accept rate next to ratchet plan --aa's prediction, and appends them to
$ANCHOR_HOME/calibration.jsonl (the dashboard shows the latest). It spends tokens:
N holdout evaluations.

Environment: ANCHOR_HOME (the ledger, default .anchor), ANCHOR_TASKS (the suite,
default the one the ledger froze at init), MODEL_* (the task model).`

// calibrateCommand is ratchet calibrate: the gate's false-accept rate,
// measured with the live model on neutral variants of the head.
func calibrateCommand(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("calibrate", flag.ContinueOnError)
	n := fs.Int("n", 20, "neutral variants to evaluate")
	variants := fs.String("variants", "", "a folder of whole system prompts, one a file, to use as the variants instead")
	asJSON := fs.Bool("json", false, "print JSON")
	if err := parseFlags(fs, args, calibrateUsage); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usageErr("unexpected argument %q: ratchet calibrate takes only flags", fs.Arg(0))
	}
	if *n < 1 {
		return usageErr("--n %d: evaluate at least one variant", *n)
	}
	c, err := evolve.FromEnv("harness")
	if err != nil {
		return err
	}
	cal, err := c.Calibrate(ctx, *n, *variants)
	if err != nil {
		return err
	}
	if *asJSON {
		return json.NewEncoder(os.Stdout).Encode(cal)
	}
	cal.WriteText(os.Stdout)
	return nil
}
