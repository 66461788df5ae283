package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"strings"

	"ratchet/door"
	"ratchet/door/serve"
)

const runUsage = `usage: ratchet run [flags] "request"
Runs the head harness on your project for one request; prints the test command,
the steps, the files changed and the tests before and after, and saves the record
in RATCHET_HOME. Exits 0 when the run completed and the tests pass, 1 when they
still fail or the run ended otherwise, 2 for bad input, 3 when the model server
gave no answer.
` + doorEnv

// runCommand is ratchet run: one request on a project, from the terminal.
func runCommand(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("run", flag.ContinueOnError)
	project := fs.String("project", ".", "the project folder")
	session := fs.String("session", "", "continue this session")
	asJSON := fs.Bool("json", false, "print the request record as JSON, with its exit_status")
	requests := requestFlags(fs)
	open := doorFlags(fs)
	if err := parseFlags(fs, args, runUsage); err != nil {
		return err
	}
	if fs.NArg() == 0 {
		return usageErr(`usage: ratchet run [--project DIR] [--test CMD] [--session ID] [--sandbox] "request"`)
	}
	d, err := open(requests)
	if err != nil {
		return err
	}
	defer d.Close()
	rec, err := d.Ask(ctx, door.Request{Project: *project, Text: strings.Join(fs.Args(), " "), Session: *session}, os.Stderr)
	if err != nil {
		return err
	}
	err = runResult(rec)
	if *asJSON {
		return errors.Join(err, printJSONIndented(struct {
			door.Record
			ExitStatus int `json:"exit_status"`
		}{rec, exitStatus(err)}))
	}
	fmt.Println(serve.Summary(rec))
	return err
}

// runResult is the exit status of a finished request, as an error: 3 when
// the model server never answered, 2 when the request could not be served
// (the tests cannot build in the sandbox), 1 when the run ended otherwise than
// completed or the tests still fail, nil when it did what was asked.
func runResult(rec door.Record) error {
	switch {
	case rec.ExitStatus() == exitInfra:
		return withStatus(exitInfra, fmt.Errorf("the model gave no answer (outcome %s): check MODEL_URL and MODEL_NAME; the record is %s", rec.Outcome, rec.ID))
	case rec.ExitStatus() == 0:
		return nil
	case rec.ExitStatus() == exitUsage:
		return withStatus(exitUsage, fmt.Errorf("%s; the record is %s", rec.Answer, rec.ID))
	case rec.Outcome != "completed":
		return fmt.Errorf("the run ended as %s, not completed; ratchet sessions --show %s has the record", rec.Outcome, rec.ID)
	}
	return fmt.Errorf("the tests still fail after the run (%s)", door.Clip(rec.TestsAfter, 200))
}
