package main

import (
	"context"
	"flag"
	"path/filepath"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"ratchet/door/mcpdoor"
	"ratchet/internal/harnesses"
)

const mcpUsage = `usage: ratchet mcp [--root DIR | --project DIR] [flags]
An MCP server on stdio: ask, sessions and read-only ledger queries. Without --root or
--project it works on the folder it is started in (not / or your home folder);
ratchet editors writes the editors' configuration for it.
` + doorEnv

// mcpCommand is ratchet mcp: the MCP front door on stdio.
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
