package cli

import (
	"cmp"
	"context"
	"flag"
	"fmt"
	"os"

	"ratchet/ui"
)

func uiCommand(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("ui", flag.ContinueOnError)
	addr := fs.String("addr", "127.0.0.1:8766", "listen address")
	home := fs.String("home", cmp.Or(os.Getenv("ANCHOR_HOME"), ".anchor"), "the anchor's home, holding ledger.db (ANCHOR_HOME)")
	if err := parseFlags(fs, args, uiUsage); err != nil {
		return err
	}
	if _, err := os.Stat(*home + "/ledger.db"); err != nil {
		return fmt.Errorf("no ledger in %s: set --home or ANCHOR_HOME to the anchor's home", *home)
	}
	return listenAndServe(ctx, *addr, ui.Handler{Home: *home}, "the dashboard is")
}
