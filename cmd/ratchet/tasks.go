package main

import (
	"context"
	"flag"
)

const tasksUsage = `usage: ratchet tasks validate [--jobs N] [--gain G] DIR
       ratchet tasks import exercism DIR --out SUITE
       ratchet tasks mine REPO --out SUITE     tasks from the fixing commits of a git history
       ratchet tasks mutate REPO --out SUITE   tasks from bugs planted in the code (-n, --seed)
validate checks every task of the suite in DIR in the anchor's sandbox: the repo
fails, the reference passes, nothing hidden leaks, no two tasks are the same.
import exercism writes a suite from an exercism track or the Aider polyglot benchmark.`

// tasksCommand is ratchet tasks: it hands validate, import, mine and
// mutate to their own commands.
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
	return validateCommand(ctx, args[1:])
}
