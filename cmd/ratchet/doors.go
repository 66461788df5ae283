package main

import (
	"bytes"
	"cmp"
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"text/tabwriter"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"ratchet/door"
	"ratchet/internal/harnesses"
	"ratchet/internal/show"
	"ratchet/mcpdoor"
	"ratchet/serve"
)

// doorFlags are the settings every front door shares. The function it
// returns opens the door, each of with changing the configuration first.
func doorFlags(fs *flag.FlagSet) func(with ...func(*door.Config)) (*door.Door, error) {
	h := fs.String("home", cmp.Or(os.Getenv("RATCHET_HOME"), defaultHome()), "request records, builds and traces (RATCHET_HOME, default ~/.ratchet)")
	harness := fs.String("harness", os.Getenv("RATCHET_HARNESS"), "run this harness folder (RATCHET_HARNESS); default: the ledger's head, else the built-in baseline")
	ledgerFlag := fs.String("ledger", "", "run the head of this ledger (an anchor home); default: ANCHOR_HOME, RATCHET_LEDGER, ~/.config/ratchet/config")
	sandbox := fs.Bool("sandbox", false, "run the agent under bubblewrap, as the anchor does")
	numCtx := fs.Int("num-ctx", 16384, "context size stated to the model (Ollama's num_ctx); 0 leaves MODEL_OPTIONS as it is")
	return func(with ...func(*door.Config)) (*door.Door, error) {
		if *h == "" {
			return nil, usageErr("no folder for the request records and builds: set RATCHET_HOME or HOME, or pass --home DIR")
		}
		home, err := absolute("--home (RATCHET_HOME)", *h)
		if err != nil {
			return nil, err
		}
		folder := *harness
		if folder != "" {
			if folder, err = absolute("--harness (RATCHET_HARNESS)", folder); err != nil {
				return nil, err
			}
		}
		ledger, from, err := doorLedger(folder, *ledgerFlag)
		if err != nil {
			return nil, err
		}
		if raw := os.Getenv(from); (from == "ANCHOR_HOME" || from == "RATCHET_LEDGER") && !filepath.IsAbs(raw) && !strings.HasPrefix(raw, "~") {
			fmt.Fprintf(os.Stderr, "ratchet: %s=%s is relative; using %s\n", from, raw, ledger)
		}
		cfg := door.Config{Harness: folder, Ledger: ledger, Home: home, Env: os.Environ(), Sandbox: *sandbox, NumCtx: *numCtx}
		for _, f := range with {
			f(&cfg)
		}
		return door.Open(cfg)
	}
}

// defaultHome is ~/.ratchet, or "" when there is no absolute home folder:
// never a relative path, which would put the records and the cached builds
// in whatever folder the door starts in (the project, for an editor).
func defaultHome() string {
	home, err := os.UserHomeDir()
	if err != nil || !filepath.IsAbs(home) {
		return ""
	}
	return filepath.Join(home, ".ratchet")
}

// absolute resolves a folder the operator named once, at start, and says so
// when it was relative: the door never changes folder, but what runs must
// not depend on where it was started beyond that moment.
func absolute(what, path string) (string, error) {
	if filepath.IsAbs(path) {
		return filepath.Clean(path), nil
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", usageErr("%s %q: %v; give an absolute path", what, path, err)
	}
	fmt.Fprintf(os.Stderr, "ratchet: %s %s is relative; using %s\n", what, path, abs)
	return abs, nil
}

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
// the model server never answered, 1 when the run ended otherwise than
// completed or the tests still fail, nil when it did what was asked.
func runResult(rec door.Record) error {
	switch {
	case rec.Outcome == "model_error" || (rec.Outcome == "error" || rec.Outcome == "no result") && rec.Tokens == 0:
		return withStatus(exitInfra, fmt.Errorf("the model gave no answer (outcome %s): check MODEL_URL and MODEL_NAME; the record is %s", rec.Outcome, rec.ID))
	case rec.Outcome != "completed":
		return fmt.Errorf("the run ended as %s, not completed; ratchet sessions --show %s has the record", rec.Outcome, rec.ID)
	case strings.HasPrefix(rec.TestsAfter, "fail"):
		return fmt.Errorf("the tests still fail after the run (%s)", clipLine(rec.TestsAfter))
	}
	return nil
}

func clipLine(s string) string {
	if s = strings.Join(strings.Fields(s), " "); len(s) > 200 {
		s = s[:200] + "…"
	}
	return s
}

func sessionsCommand(args []string) error {
	fs := flag.NewFlagSet("sessions", flag.ContinueOnError)
	asJSON := fs.Bool("json", false, "print JSON")
	showID := fs.String("show", "", "print the records of this session, or the record with this id")
	doorFlags(fs)
	if err := parseFlags(fs, args, sessionsUsage); err != nil {
		return err
	}
	// Reading the records creates nothing: no home, no database.
	home := fs.Lookup("home").Value.String()
	if home == "" {
		return usageErr("no folder for the request records: set RATCHET_HOME or HOME, or pass --home DIR")
	}
	d, err := door.OpenRecords(home)
	if err != nil {
		return err
	}
	defer d.Close()
	if *showID != "" {
		recs, err := d.Show(*showID)
		if err != nil {
			return err
		}
		if len(recs) == 0 {
			return usageErr("no session or record %q in %s; ratchet sessions lists them", *showID, home)
		}
		return printJSONIndented(recs)
	}
	ss, err := d.Sessions()
	if err != nil {
		return err
	}
	if *asJSON {
		return printJSON(ss)
	}
	if len(ss) == 0 {
		fmt.Printf("no sessions yet in %s; ratchet run \"request\" starts one\n", home)
		return nil
	}
	tw := tabwriter.NewWriter(os.Stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "SESSION\tREQUESTS\tLAST\tOUTCOME\tPROJECT")
	for _, s := range ss {
		fmt.Fprintf(tw, "%s\t%d\t%s\t%s\t%s\n", show.Line(s.ID, 40), s.Requests, show.Line(s.Last, 40), show.Line(s.Outcome, 40),
			show.Line(s.Project, 200))
	}
	return tw.Flush()
}

func serveCommand(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	addr := fs.String("addr", "127.0.0.1:8765", "listen address: loopback unless --allow-remote (the agent edits files and runs tests)")
	allowRemote := fs.Bool("allow-remote", false, "allow a non-loopback --addr: anyone who reaches it and holds the token can run the agent")
	var origins, hosts []string
	fs.Func("allow-origin", "accept requests carrying this Origin, e.g. http://localhost:3000 (repeatable; default: none)", appendTo(&origins))
	fs.Func("allow-host", "accept this Host header besides the bound address (repeatable; with --allow-remote on 0.0.0.0, the name clients use)", appendTo(&hosts))
	roots := rootFlags(fs)
	requests := requestFlags(fs)
	open := doorFlags(fs)
	if err := parseFlags(fs, args, serveUsage); err != nil {
		return err
	}
	if err := loopbackOnly(*addr, *allowRemote); err != nil {
		return err
	}
	if err := roots.check("serve"); err != nil {
		return err
	}
	d, err := open(requests, roots.apply)
	if err != nil {
		return err
	}
	defer d.Close()
	ln, err := listen(*addr)
	if err != nil {
		return err
	}
	token := os.Getenv("RATCHET_TOKEN")
	if token == "" {
		token = rand.Text()
		fmt.Fprintf(os.Stderr, "ratchet: token %s (send it as Authorization: Bearer TOKEN, or as an OpenAI client's API key; RATCHET_TOKEN sets your own)\n", token)
	}
	h := serve.Handler{Door: d, Project: roots.defaultProject(), Token: token, Hosts: append(boundHosts(ln.Addr()), hosts...), Origins: origins,
		Log: os.Stderr}
	return serveOn(ctx, ln, h, "serving POST /v1/ask and POST /v1/chat/completions")
}

func mcpCommand(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("mcp", flag.ContinueOnError)
	roots := rootFlags(fs)
	requests := requestFlags(fs)
	open := doorFlags(fs)
	if err := parseFlags(fs, args, mcpUsage); err != nil {
		return err
	}
	// An editor starts it in the workspace: that folder, and nothing outside it.
	if err := roots.orWorkingDir("mcp"); err != nil {
		return err
	}
	d, err := open(requests, roots.apply)
	if err != nil {
		return err
	}
	defer d.Close()
	// The ledger tools read only a ledger the user named (the one whose head
	// runs, else the one --ledger, ANCHOR_HOME, RATCHET_LEDGER or the config
	// file names when --harness picks the code): never ./.anchor, which an
	// editor's working folder, the project, could ship.
	ledger := d.Ledger()
	if ledger == "" {
		if ledger, _, err = harnesses.Ledger(fs.Lookup("ledger").Value.String()); err != nil {
			return err
		}
	}
	if ledger != "" {
		ledger = filepath.Join(ledger, "ledger.db")
	}
	return mcpdoor.New(d, ledger).Run(ctx, &mcp.StdioTransport{})
}

// printJSON prints v as JSON on stdout, its strings through the sanitiser:
// a record's request, answer, calls and observations are the agent's.
func printJSON(v any) error {
	b, err := show.JSON(v)
	if err == nil {
		_, err = fmt.Println(string(b))
	}
	return err
}

// printJSONIndented is printJSON for a person: indented.
func printJSONIndented(v any) error {
	b, err := show.JSON(v)
	var out bytes.Buffer
	if err == nil {
		err = json.Indent(&out, b, "", "  ")
	}
	if err == nil {
		_, err = fmt.Println(out.String())
	}
	return err
}
