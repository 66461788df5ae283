package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"runtime"

	"ratchet/tasks"
	"ratchet/tasks/exercism"
)

func tasksCommand(ctx context.Context, args []string) error {
	if groupHelp(args, tasksUsage) {
		return flag.ErrHelp
	}
	if len(args) > 0 && args[0] == "import" {
		return importCommand(args[1:])
	}
	if len(args) > 0 && args[0] == "mine" {
		return mineCommand(ctx, args[1:])
	}
	if len(args) > 0 && args[0] == "mutate" {
		return mutateCommand(ctx, args[1:])
	}
	if len(args) == 0 || args[0] != "validate" {
		return usageErr("usage: ratchet tasks validate|import|mine|mutate ...; run ratchet tasks -h")
	}
	fs := flag.NewFlagSet("tasks validate", flag.ContinueOnError)
	jobs := fs.Int("jobs", 2*runtime.NumCPU(), "tasks checked in parallel (twice the CPUs: a scoring waits on its sandboxes as much as on the CPU)")
	if err := parseFlags(fs, args[1:], tasksUsage); err != nil {
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

// importCommand is ratchet tasks import exercism DIR --out SUITE. Its flags
// may stand before or after the folder.
func importCommand(args []string) error {
	const use = "usage: ratchet tasks import exercism DIR --out SUITE"
	fs := flag.NewFlagSet("tasks import", flag.ContinueOnError)
	out := fs.String("out", "", "the new suite's folder (must not exist)")
	var words []string
	for rest := args; ; rest = fs.Args()[1:] {
		if err := parseFlags(fs, rest, tasksImportUsage); err != nil {
			return err
		}
		if fs.NArg() == 0 {
			break
		}
		words = append(words, fs.Arg(0))
	}
	switch {
	case len(words) != 2 || words[0] != "exercism":
		return usageErr(use + " (exercism is the one format it reads)")
	case *out == "":
		return usageErr(use + ": --out names the suite to write")
	}
	res, err := exercism.Import(words[1], *out)
	if err != nil { // a refusal of DIR or --out: nothing was written
		return withStatus(exitUsage, err)
	}
	if err := res.Print(os.Stdout); err != nil {
		return err
	}
	fmt.Printf("wrote %s; check it with: ratchet tasks validate %s\n", *out, *out)
	return nil
}
