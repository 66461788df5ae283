package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"runtime"

	"ratchet/internal/show"
	"ratchet/tasks"
)

// validateCommand is ratchet tasks validate DIR: every task of a suite
// checked in the anchor's sandbox, and the suite as a whole.
func validateCommand(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("tasks validate", flag.ContinueOnError)
	jobs := fs.Int("jobs", 2*runtime.NumCPU(), "tasks checked in parallel (twice the CPUs: a scoring waits on its sandboxes as much as on the CPU)")
	gain := fs.Float64("gain", 0.10, "the holdout gain that matters to you (0.10 is ten points): warn when the gate would miss it")
	if err := parseFlags(fs, args, tasksUsage); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return usageErr("usage: ratchet tasks validate [--jobs N] [--gain G] DIR")
	}
	if !(*gain > 0 && *gain < 1) {
		return usageErr("--gain %g: a gain is a rise of the mean score between 0 and 1 (0.10 is ten points)", *gain)
	}
	if st, err := os.Stat(fs.Arg(0)); err != nil || !st.IsDir() {
		return usageErr("no suite folder %s: give the folder holding train/, holdout/ and sealed/", fs.Arg(0))
	}
	results, err := tasks.Validate(ctx, fs.Arg(0), *jobs, os.Stdout)
	if err != nil {
		return withStatus(exitUsage, err) // a folder without tasks
	}
	// At the anchor's default alpha; a ledger initialised with another can
	// need more (ratchet plan --alpha).
	if problems := tasks.SuiteProblems(fs.Arg(0), 0.05); len(problems) > 0 {
		for _, p := range problems {
			fmt.Println("BAD suite: " + p)
		}
		return fmt.Errorf("the suite cannot be used as it is (%s, BAD suite above)", show.Count(len(problems), "problem"))
	}
	if line, weak, err := tasks.Detection(ctx, fs.Arg(0), 0.05, *gain); err != nil {
		return err
	} else if weak {
		fmt.Println("WARN suite: " + line + "; more holdout groups (or repeats, on a model that samples) raise it")
	} else if line != "" {
		fmt.Println(line)
	}
	bad := 0
	for _, r := range results {
		if r.Problem != "" {
			bad++
		}
	}
	if bad > 0 {
		return fmt.Errorf("%d of %d tasks are bad; see the table above", bad, len(results))
	}
	if len(results) == 1 {
		fmt.Println("the 1 task is good")
	} else {
		fmt.Printf("all %d tasks are good\n", len(results))
	}
	return nil
}
