package main

import (
	"cmp"
	"context"
	"flag"
	"net/http"
	"os"
	"strings"

	"ratchet/door/ui"
)

const uiUsage = `usage: ratchet ui [--addr 127.0.0.1:PORT] [--home DIR]
A read-only dashboard over the ledger. Environment: ANCHOR_HOME sets --home.`

// uiCommand is ratchet ui: the read-only dashboard over a ledger.
func uiCommand(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("ui", flag.ContinueOnError)
	addr := fs.String("addr", "127.0.0.1:8766", "listen address")
	home := fs.String("home", cmp.Or(os.Getenv("ANCHOR_HOME"), ".anchor"), "the anchor's home, holding ledger.db (ANCHOR_HOME)")
	if err := parseFlags(fs, args, uiUsage); err != nil {
		return err
	}
	if _, err := os.Stat(*home + "/ledger.db"); err != nil {
		return usageErr("no ledger in %s: set --home or ANCHOR_HOME to the anchor's home", *home)
	}
	ln, err := listen(*addr)
	if err != nil {
		return err
	}
	return serveOn(ctx, ln, sameHost(ui.Handler{Home: *home}, boundHosts(ln.Addr())), "the dashboard is")
}

// sameHost serves only requests whose Host names the bound address: a web
// page that rebinds its own name to 127.0.0.1 must not read the ledger.
func sameHost(h http.Handler, hosts []string) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		for _, host := range hosts {
			if strings.EqualFold(r.Host, host) {
				h.ServeHTTP(w, r)
				return
			}
		}
		http.Error(w, "forbidden: the Host header does not name this dashboard's address", http.StatusForbidden)
	})
}
