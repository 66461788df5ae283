package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"runtime"

	"ratchet/tasks"
)

// validateCommand is ratchet tasks validate DIR: every task of a suite
// checked in the anchor's sandbox, and the suite as a whole.
func validateCommand(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("tasks validate", flag.ContinueOnError)
	jobs := fs.Int("jobs", 2*runtime.NumCPU(), "tasks checked in parallel (twice the CPUs: a scoring waits on its sandboxes as much as on the CPU)")
	if err := parseFlags(fs, args, tasksUsage); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return usageErr("usage: ratchet tasks validate [--jobs N] DIR")
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
		return fmt.Errorf("the suite cannot be used as it is (%d problems, BAD suite above)", len(problems))
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
