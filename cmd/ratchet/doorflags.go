package main

import (
	"cmp"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"ratchet/door"
)

// doorFlags are the settings every front door shares. The function it
// returns opens the door, each of with changing the configuration first.
func doorFlags(fs *flag.FlagSet) func(with ...func(*door.Config)) (*door.Door, error) {
	h := fs.String("home", cmp.Or(os.Getenv("RATCHET_HOME"), defaultHome()), "request records, builds and traces (RATCHET_HOME, default ~/.ratchet)")
	harness := fs.String("harness", os.Getenv("RATCHET_HARNESS"), "run this harness folder (RATCHET_HARNESS); default: the ledger's head, else the built-in baseline")
	ledgerFlag := fs.String("ledger", "", "run the head of this ledger (an anchor home); default: ANCHOR_HOME, RATCHET_LEDGER, ~/.config/ratchet/config")
	sandbox := fs.Bool("sandbox", false, "run the agent under bubblewrap, as the anchor does")
	numCtx := fs.Int("num-ctx", 16384, "context size stated to the model when the server is Ollama (its num_ctx; no other server is sent it); 0 leaves MODEL_OPTIONS as it is")
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
