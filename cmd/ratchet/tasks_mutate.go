package main

import (
	"context"
	"flag"
	"os"

	"ratchet/tasks/mine"
)

const mutateUsage = `usage: ratchet tasks mutate REPO --out SUITE [flags]
Plants bugs in REPO's code (Go or Python), one at a time and now and then two or three
in one function, and keeps those its own tests catch, as tasks whose prompt is the
failing test's report (tasks/README.md).`

// mutateCommand is ratchet tasks mutate: a suite of bugs planted in a
// project's code that its own tests catch.
func mutateCommand(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("tasks mutate", flag.ContinueOnError)
	out := fs.String("out", "", "the suite folder to write (new or empty)")
	n := fs.Int("n", 20, "tasks wanted")
	seed := fs.Uint64("seed", 1, "the order mutants are tried in: the same seed gives the same tasks")
	split := fs.String("split", "60/25/15", "train/holdout/sealed percentages")
	jobs := fs.Int("jobs", 2, "mutants tried in the sandbox at once")
	budget := fs.Duration("time", 0, "stop trying mutants after this long (15m) and write the tasks kept; 0: no limit")
	rev := fs.String("rev", "", "the commit whose code is mutated (default: HEAD in a git repository, else the folder as it is)")
	repo, sp, err := repoArgs(fs, args, split, out, mutateUsage,
		"usage: ratchet tasks mutate REPO --out SUITE [-n N] [--seed S] [--split 60/25/15] [--jobs N] [--rev REV] [--time 15m]")
	if err != nil {
		return err
	}
	sum, err := mine.Mutate(ctx, mine.MutateOptions{Repo: repo, Rev: *rev, Budget: *budget, Out: *out, N: *n, Seed: *seed, Split: sp, Jobs: *jobs, Progress: os.Stderr})
	if err != nil { // a refusal of the project or --out
		return withStatus(exitUsage, err)
	}
	sum.Print(os.Stdout, "mutants")
	return reach(ctx, *out)
}
