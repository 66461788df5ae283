package main

import (
	"cmp"
	"context"
	"flag"
	"fmt"
	"os"

	"ratchet/internal/scripted"
)

const scriptedUsage = `usage: ratchet scripted-model [--suite DIR] [--rate P]
Serves the demo's scripted models (the task oracle, then the evolver) until
interrupted and prints their URLs. Environment: ANCHOR_TASKS sets --suite.`

// scriptedCommand serves the demo's scripted models until interrupted: the
// oracle task model on the suite, then the scripted evolver. It prints their
// URLs, one a line, in that order.
func scriptedCommand(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("scripted-model", flag.ContinueOnError)
	suite := fs.String("suite", cmp.Or(os.Getenv("ANCHOR_TASKS"), "tasks/example"), "the task suite the oracle knows (ANCHOR_TASKS)")
	rate := fs.Float64("rate", 0.2, "the oracle's chance of solving a task without the phrase")
	if err := parseFlags(fs, args, scriptedUsage); err != nil {
		return err
	}
	if *rate < 0 || *rate > 1 {
		return usageErr("--rate %g is not a chance; give a number from 0 to 1", *rate)
	}
	oracle, err := scripted.StartOracle(scripted.Oracle{Suite: *suite, Phrase: scripted.DemoPhrase, Rate: *rate})
	if err != nil {
		return err
	}
	defer oracle.Close()
	evolver, err := scripted.StartEvolver(scripted.DemoPhrase)
	if err != nil {
		return err
	}
	defer evolver.Close()
	fmt.Println(oracle.URL)
	fmt.Println(evolver.URL)
	<-ctx.Done()
	return nil
}
