package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"net"
	"net/http"
	"os"
	"time"

	"ratchet/ui"
)

func uiCommand(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("ui", flag.ContinueOnError)
	addr := fs.String("addr", "127.0.0.1:8766", "listen address")
	home := fs.String("home", firstEnv("ANCHOR_HOME", ".anchor"), "the anchor's home, holding ledger.db (ANCHOR_HOME)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if _, err := os.Stat(*home + "/ledger.db"); err != nil {
		return fmt.Errorf("no ledger in %s: set --home or ANCHOR_HOME to the anchor's home", *home)
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		return fmt.Errorf("listen on %s: %w", *addr, err)
	}
	srv := &http.Server{Handler: ui.Handler{Home: *home}, ReadHeaderTimeout: 10 * time.Second}
	go func() { <-ctx.Done(); srv.Close() }()
	fmt.Fprintf(os.Stderr, "ratchet: the dashboard is on http://%s\n", ln.Addr())
	if err := srv.Serve(ln); !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}
