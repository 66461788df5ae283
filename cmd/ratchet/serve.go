package main

import (
	"context"
	"crypto/rand"
	"flag"
	"fmt"
	"os"

	"ratchet/door/serve"
)

const serveUsage = `usage: ratchet serve --project DIR | --root DIR [flags]
Serves POST /v1/ask and the OpenAI-compatible POST /v1/chat/completions on loopback,
for the projects named. RATCHET_TOKEN is the bearer token clients send (default: a
new one, printed at start).
` + doorEnv

// serveCommand is ratchet serve: the HTTP front door on loopback.
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
