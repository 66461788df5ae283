package cli

import (
	"context"
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
	"ratchet/mcpdoor"
	"ratchet/serve"
)

// doorFlags are the settings every front door shares.
func doorFlags(fs *flag.FlagSet) func() (*door.Door, error) {
	home, _ := os.UserHomeDir()
	h := fs.String("home", firstEnv("RATCHET_HOME", filepath.Join(home, ".ratchet")), "request records, builds and traces (RATCHET_HOME)")
	harness := fs.String("harness", firstEnv("RATCHET_HARNESS", "harness"), "the head harness folder (RATCHET_HARNESS)")
	sandbox := fs.Bool("sandbox", false, "run the agent under bubblewrap, as the anchor does")
	numCtx := fs.Int("num-ctx", 16384, "context size stated to the model (Ollama's num_ctx); 0 leaves MODEL_OPTIONS as it is")
	return func() (*door.Door, error) {
		return door.Open(door.Config{Harness: *harness, Home: *h, Env: os.Environ(), Sandbox: *sandbox, NumCtx: *numCtx})
	}
}

func firstEnv(k, def string) string {
	if v := os.Getenv(k); v != "" {
		return v
	}
	return def
}

func runCommand(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("run", flag.ContinueOnError)
	project := fs.String("project", ".", "the project folder")
	test := fs.String("test", "", "the test command (default: detected: go test, pytest, npm test, make test)")
	session := fs.String("session", "", "continue this session")
	open := doorFlags(fs)
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() == 0 {
		return errors.New(`usage: ratchet run [--project DIR] [--test CMD] [--session ID] [--sandbox] "request"`)
	}
	d, err := open()
	if err != nil {
		return err
	}
	defer d.Close()
	rec, err := d.Ask(ctx, door.Request{Project: *project, Text: strings.Join(fs.Args(), " "), Session: *session, Test: *test}, os.Stderr)
	if err != nil {
		return err
	}
	fmt.Println(serve.Summary(rec))
	return nil
}

func sessionsCommand(args []string) error {
	fs := flag.NewFlagSet("sessions", flag.ContinueOnError)
	asJSON := fs.Bool("json", false, "print JSON")
	show := fs.String("show", "", "print the records of this session")
	open := doorFlags(fs)
	if err := fs.Parse(args); err != nil {
		return err
	}
	d, err := open()
	if err != nil {
		return err
	}
	defer d.Close()
	if *show != "" {
		recs, err := d.Records(*show)
		if err == nil {
			err = json.NewEncoder(os.Stdout).Encode(recs)
		}
		return err
	}
	ss, err := d.Sessions()
	if err != nil || *asJSON {
		return errors.Join(err, json.NewEncoder(os.Stdout).Encode(ss))
	}
	tw := tabwriter.NewWriter(os.Stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "SESSION\tREQUESTS\tLAST\tOUTCOME\tPROJECT")
	for _, s := range ss {
		fmt.Fprintf(tw, "%s\t%d\t%s\t%s\t%s\n", s.ID, s.Requests, s.Last, s.Outcome, s.Project)
	}
	return tw.Flush()
}

func serveCommand(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	addr := fs.String("addr", "127.0.0.1:8765", "listen address (keep it on loopback: the agent edits files)")
	project := fs.String("project", "", "the project a chat request works on when it names none")
	open := doorFlags(fs)
	if err := fs.Parse(args); err != nil {
		return err
	}
	d, err := open()
	if err != nil {
		return err
	}
	defer d.Close()
	return listenAndServe(ctx, *addr, serve.Handler{Door: d, Project: *project}, "serving POST /v1/ask and POST /v1/chat/completions")
}

func mcpCommand(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("mcp", flag.ContinueOnError)
	open := doorFlags(fs)
	if err := fs.Parse(args); err != nil {
		return err
	}
	d, err := open()
	if err != nil {
		return err
	}
	defer d.Close()
	ledger := filepath.Join(firstEnv("ANCHOR_HOME", ".anchor"), "ledger.db")
	return mcpdoor.New(d, ledger).Run(ctx, &mcp.StdioTransport{})
}
