package main

import (
	"context"
	"flag"
	"fmt"
	"os"

	"ratchet/tasks/mine"
)

// mineCommand is ratchet tasks mine: a suite from a repository's fixing
// commits.
func mineCommand(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("tasks mine", flag.ContinueOnError)
	out := fs.String("out", "", "the suite folder to write (new, empty, or one an earlier tasks mine of this repository wrote)")
	rev := fs.String("rev", "HEAD", "the commit whose first-parent history is walked")
	split := fs.String("split", "60/25/15", "train/holdout/sealed percentages, oldest commits to train")
	jobs := fs.Int("jobs", 2, "commits checked in the sandbox at once")
	repo, sp, err := repoArgs(fs, args, split, out, mineUsage,
		"usage: ratchet tasks mine REPO --out SUITE [--split 60/25/15] [--jobs N] [--rev REV]")
	if err != nil {
		return err
	}
	sum, err := mine.Mine(ctx, mine.Options{Repo: repo, Out: *out, Rev: *rev, Split: sp, Jobs: *jobs, Progress: os.Stderr})
	if err != nil { // a refusal of the repository or --out: a sandbox failure is a skip reason, not an error
		return withStatus(exitUsage, err)
	}
	sum.Print(os.Stdout, "commits")
	fmt.Printf("next: ratchet tasks validate %s; ratchet plan says how many tasks the gate needs\n", *out)
	return nil
}

// mutateCommand is ratchet tasks mutate: a suite of bugs planted in a
// project's code that its own tests catch.
func mutateCommand(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("tasks mutate", flag.ContinueOnError)
	out := fs.String("out", "", "the suite folder to write (new or empty)")
	n := fs.Int("n", 20, "tasks wanted")
	seed := fs.Uint64("seed", 1, "the order mutants are tried in: the same seed gives the same tasks")
	split := fs.String("split", "60/25/15", "train/holdout/sealed percentages")
	jobs := fs.Int("jobs", 2, "mutants tried in the sandbox at once")
	repo, sp, err := repoArgs(fs, args, split, out, mutateUsage,
		"usage: ratchet tasks mutate REPO --out SUITE [-n N] [--seed S] [--split 60/25/15] [--jobs N]")
	if err != nil {
		return err
	}
	sum, err := mine.Mutate(ctx, mine.MutateOptions{Repo: repo, Out: *out, N: *n, Seed: *seed, Split: sp, Jobs: *jobs, Progress: os.Stderr})
	if err != nil { // a refusal of the project or --out
		return withStatus(exitUsage, err)
	}
	sum.Print(os.Stdout, "mutants")
	fmt.Printf("next: ratchet tasks validate %s; ratchet plan says how many tasks the gate needs\n", *out)
	return nil
}

// repoArgs parses the flags and the REPO argument of tasks mine and tasks
// mutate and reads --split; a missing REPO or --out is a usage error.
func repoArgs(fs *flag.FlagSet, args []string, split, out *string, usage, short string) (string, [3]int, error) {
	repo, err := parseWithArg(fs, args, usage)
	if err != nil {
		return "", [3]int{}, err
	}
	sp, err := mine.ParseSplit(*split)
	if err != nil {
		return "", sp, withStatus(exitUsage, err)
	}
	if repo == "" || *out == "" {
		return "", sp, usageErr("%s", short)
	}
	return repo, sp, nil
}

// parseWithArg parses flags given before or after the one argument, as in
// ratchet tasks mine REPO --out SUITE; it returns "" unless there is
// exactly one.
func parseWithArg(fs *flag.FlagSet, args []string, usage string) (string, error) {
	var pos []string
	for {
		if err := parseFlags(fs, args, usage); err != nil {
			return "", err
		}
		if fs.NArg() == 0 {
			break
		}
		pos, args = append(pos, fs.Arg(0)), fs.Args()[1:]
	}
	if len(pos) != 1 {
		return "", nil
	}
	return pos[0], nil
}
