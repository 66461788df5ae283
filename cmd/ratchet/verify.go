package main

import (
	"cmp"
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"strconv"

	"ratchet/audit"
	"ratchet/internal/ledgerdb"
	"ratchet/internal/show"
)

const verifyUsage = `usage: ratchet verify [--json] [--home DIR] [--tasks SUITE] [GEN]
Re-derives generation GEN's decision, or every decided generation's, from the ledger
and the suite on disk, without the model: re-hashes the snapshots and each task
folder, re-scores each run from the test report the anchor kept in
reports/<run>.json.gz, and decides again through the anchor's gate under the ledger's
frozen alpha. Prints a certificate per generation (--json: harness and suite hashes,
who scored the runs and who re-derived them, every run's score, the evidence) ending
in verified or the first discrepancy; exits 1 if any did not verify. A run scored
through ANCHOR_RUNNER verifies when the runner brought its report back (ratchet fleet
submit does); one from before that, or another runner's, does not. It reads the ledger only.
Environment: ANCHOR_HOME sets --home, ANCHOR_TASKS --tasks.`

// verifyCommand is ratchet verify: every decision re-derived at zero tokens.
func verifyCommand(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("verify", flag.ContinueOnError)
	home := fs.String("home", cmp.Or(os.Getenv("ANCHOR_HOME"), ".anchor"), "the anchor's home, holding ledger.db (ANCHOR_HOME)")
	tasks := fs.String("tasks", "", "the task suite the runs were scored on (ANCHOR_TASKS; default the one the ledger froze at init)")
	asJSON := fs.Bool("json", false, "print the certificates as JSON")
	if err := parseFlags(fs, args, verifyUsage); err != nil {
		return err
	}
	gen, err := strconv.Atoi(cmp.Or(fs.Arg(0), "-1"))
	if err != nil || fs.NArg() > 1 || gen < -1 {
		return usageErr("ratchet verify takes at most one generation number, not %q; ratchet log lists them", fs.Args())
	}
	certs, err := audit.Ledger{Home: *home, Tasks: cmp.Or(*tasks, ledgerdb.Suite(*home))}.Verify(ctx, gen)
	if err != nil {
		return withStatus(exitUsage, err)
	}
	bad := 0
	for _, c := range certs {
		if c.Discrepancy != "" {
			bad++
		}
		if !*asJSON {
			fmt.Println(show.Line(fmt.Sprintf("generation %d %s, harness %.12s, suite %.12s, %d runs: %s", c.Gen,
				c.Decision, c.HarnessHash, c.SuiteHash, len(c.Scores), cmp.Or(c.Discrepancy, "verified: "+c.Reason)), 4000))
		}
	}
	if *asJSON {
		if err := printJSON(certs); err != nil {
			return err
		}
	}
	if bad > 0 {
		return withStatus(exitNegative, errors.New(show.Line(fmt.Sprintf("%d of %d generations did not verify", bad, len(certs)), 200)))
	}
	return nil
}
