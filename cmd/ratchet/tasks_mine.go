package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"strings"
	"time"

	"ratchet/tasks"
	"ratchet/tasks/mine"
)

const mineUsage = `usage: ratchet tasks mine REPO --out SUITE [flags]
Walks REPO's first-parent history for commits that change code and tests together,
whose tests fail on the parent and pass on the commit, and writes one task each
(tasks/README.md, "Your own tasks"). A second run adds only new commits. Environment:
GOPROXY (the host's module proxy) is used to vendor Go modules. --mutants N then
plants bugs in the code at --rev as ratchet tasks mutate does and adds up to N of
them to the same suite: one command for one suite from history and mutations; --time
bounds the whole command (the history is mined in full, then mutants are tried until
the time is spent). It ends with the gain the gate can reach on the suite.`

// mineCommand is ratchet tasks mine: a suite from a repository's fixing
// commits.
func mineCommand(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("tasks mine", flag.ContinueOnError)
	out := fs.String("out", "", "the suite folder to write (new, empty, or one an earlier tasks mine of this repository wrote)")
	rev := fs.String("rev", "HEAD", "the commit whose first-parent history is walked")
	split := fs.String("split", "60/25/15", "train/holdout/sealed percentages, oldest commits to train")
	jobs := fs.Int("jobs", 2, "commits checked in the sandbox at once")
	since := fs.String("since", "", "only commits from this date on (2024-01-31), to bound a run")
	maxCommits := fs.Int("max-commits", 0, "only the newest N commits not mined before (0: all), to bound a run")
	mutants := fs.Int("mutants", 0, "then add up to N tasks from bugs planted in the code at --rev (ratchet tasks mutate)")
	budget := fs.Duration("time", 0, "with --mutants: stop trying mutants when the command has run this long (15m); 0: no limit")
	repo, sp, err := repoArgs(fs, args, split, out, mineUsage,
		"usage: ratchet tasks mine REPO --out SUITE [--split 60/25/15] [--jobs N] [--rev REV] [--since DATE] "+
			"[--max-commits N] [--mutants N [--time 15m]]")
	if err != nil {
		return err
	}
	o := mine.Options{Repo: repo, Out: *out, Rev: *rev, Split: sp, Jobs: *jobs, MaxCommits: *maxCommits, Progress: os.Stderr}
	if *since != "" {
		if o.Since, err = time.Parse(time.DateOnly, *since); err != nil {
			return usageErr("--since %q: give a date like 2024-01-31", *since)
		}
	}
	if *maxCommits < 0 || *mutants < 0 {
		return usageErr("--max-commits %d, --mutants %d: give a number, or 0 for all commits and no mutants",
			*maxCommits, *mutants)
	}
	began := time.Now()
	sum, err := mine.Mine(ctx, o)
	if err != nil { // a refusal of the repository or --out: a sandbox failure is a skip reason, not an error
		return withStatus(exitUsage, err)
	}
	sum.Print(os.Stdout, "commits")
	left := *budget - time.Since(began)
	if *mutants > 0 && *budget > 0 && left <= 0 {
		fmt.Fprintf(os.Stderr, "tasks mine: the time budget of %s was spent on the history: no mutants added\n", *budget)
	} else if *mutants > 0 {
		msum, err := mine.AddMutants(ctx, mine.MutateOptions{Repo: repo, Rev: *rev, Out: *out, N: *mutants, Seed: 1,
			Split: sp, Jobs: *jobs, Budget: max(left, 0).Round(time.Second), Progress: os.Stderr})
		if err != nil {
			return fmt.Errorf("the mined tasks are written; adding mutants: %w", err)
		}
		msum.Print(os.Stdout, "mutants")
	}
	return reach(ctx, *out)
}

// reach ends tasks mine and tasks mutate: what the gate can see on the
// suite just written, or why it can see nothing yet.
func reach(ctx context.Context, out string) error {
	if problems := tasks.SuiteProblems(out, 0.05); len(problems) > 0 {
		fmt.Printf("the gate cannot use %s yet: %s\n", out, strings.Join(problems, "; "))
	} else if line, _, err := tasks.Detection(ctx, out, 0.05, 0.10); err != nil {
		return err
	} else if line != "" {
		fmt.Println(line)
	}
	fmt.Printf("next: ratchet tasks validate %s\n", out)
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
