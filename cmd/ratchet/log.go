package main

import (
	"cmp"
	"context"
	"flag"
	"fmt"
	"os"

	"ratchet/audit"
)

const logUsage = `usage: ratchet log [--json] [--home DIR]
The generations of the ledger: train and holdout before and after, fixed and broken
tasks and p, the decision and its reason, and what each decision cost (runs made and
from the cache, upstream requests and tokens, where the screen stopped); * marks the
head. --json prints the ledger's rows by column name. It reads the ledger only.
Environment: ANCHOR_HOME sets --home.`

// logCommand is ratchet log: the generations of the ledger.
func logCommand(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("log", flag.ContinueOnError)
	home := fs.String("home", cmp.Or(os.Getenv("ANCHOR_HOME"), ".anchor"), "the anchor's home, holding ledger.db (ANCHOR_HOME)")
	asJSON := fs.Bool("json", false, "print the generations as JSON, by the ledger's column names")
	if err := parseFlags(fs, args, logUsage); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usageErr("unexpected argument %q: ratchet log takes only flags", fs.Arg(0))
	}
	l := audit.Ledger{Home: *home}
	if *asJSON {
		rows, err := l.Generations(ctx)
		if err != nil {
			return err
		}
		return printJSON(rows)
	}
	lines, err := l.Log(ctx)
	for _, line := range lines {
		fmt.Println(line)
	}
	return err
}
