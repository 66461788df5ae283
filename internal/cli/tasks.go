package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"runtime"

	"ratchet/tasks"
)

func tasksCommand(ctx context.Context, args []string) error {
	if groupHelp(args, tasksUsage) {
		return flag.ErrHelp
	}
	if len(args) > 0 && args[0] == "mine" {
		return mineCommand(ctx, args[1:])
	}
	if len(args) > 0 && args[0] == "mutate" {
		return mutateCommand(ctx, args[1:])
	}
	if len(args) == 0 || args[0] != "validate" {
		return errors.New("usage: ratchet tasks validate [--jobs N] DIR")
	}
	fs := flag.NewFlagSet("tasks validate", flag.ContinueOnError)
	jobs := fs.Int("jobs", 2*runtime.NumCPU(), "tasks checked in parallel (twice the CPUs: a scoring waits on its sandboxes as much as on the CPU)")
	if err := parseFlags(fs, args[1:], tasksUsage); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return errors.New("usage: ratchet tasks validate [--jobs N] DIR")
	}
	results, err := tasks.Validate(ctx, fs.Arg(0), *jobs, os.Stdout)
	if err != nil {
		return err
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
	fmt.Printf("all %d tasks are good\n", len(results))
	return nil
}
