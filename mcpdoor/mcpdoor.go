// Package mcpdoor is the MCP front door, built on the official Go SDK: an
// "ask" tool that runs the head harness on a project, "sessions", and
// read-only queries of the anchor's ledger ("ledger_generations",
// "ledger_runs") for editors.
package mcpdoor

import (
	"context"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"ratchet/door"
	"ratchet/internal/ledgerdb"
	"ratchet/serve"
)

// AskInput is the ask tool's arguments.
type AskInput struct {
	Project string `json:"project" jsonschema:"path of the project folder to work on; it must lie in a folder the operator named (--project, --root, or where ratchet mcp started)"`
	Request string `json:"request" jsonschema:"what the agent should do"`
	Session string `json:"session,omitempty" jsonschema:"a session id from an earlier answer, to continue it"`
}

// LedgerInput limits a ledger query.
type LedgerInput struct {
	Limit int `json:"limit,omitempty" jsonschema:"rows to return, newest first (default 20)"`
}

// New returns the MCP server. ledger is the anchor's ledger.db; it is opened
// read-only for each query.
func New(d *door.Door, ledger string) *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "ratchet", Version: "0.1"}, nil)
	mcp.AddTool(s, &mcp.Tool{Name: "ask", Description: "Run Ratchet's coding agent (the head harness) on a project folder: it reads, edits and tests the code, and answers with what it did."},
		func(ctx context.Context, _ *mcp.CallToolRequest, in AskInput) (*mcp.CallToolResult, door.Record, error) {
			rec, err := d.Ask(ctx, door.Request{Project: in.Project, Text: in.Request, Session: in.Session}, nil)
			if err != nil {
				return nil, door.Record{}, err
			}
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: serve.Summary(rec)}}}, rec, nil
		})
	mcp.AddTool(s, &mcp.Tool{Name: "sessions", Description: "List the agent's sessions, most recent first."},
		func(ctx context.Context, _ *mcp.CallToolRequest, _ struct{}) (*mcp.CallToolResult, map[string]any, error) {
			ss, err := d.Sessions()
			return nil, map[string]any{"sessions": ss}, err
		})
	query := func(name, desc, q string) {
		mcp.AddTool(s, &mcp.Tool{Name: name, Description: desc},
			func(ctx context.Context, _ *mcp.CallToolRequest, in LedgerInput) (*mcp.CallToolResult, map[string]any, error) {
				rows, err := ledgerdb.Query(ctx, ledger, q, cmpInt(in.Limit, 20))
				return nil, map[string]any{"rows": rows}, err
			})
	}
	query("ledger_generations", "The anchor's generations, newest first: decision, reason, component, hypothesis, train and holdout scores.",
		`SELECT gen, parent_gen, harness_hash, component, hypothesis, decision, reason, train_pre, train_post, holdout_pre, holdout_post, tokens, created_at,
		 gen = (SELECT gen FROM head) AS head FROM generations ORDER BY gen DESC LIMIT ?`)
	query("ledger_runs", "The anchor's recent runs, newest first: task, split, score, tokens, error. Holdout and sealed traces are not shown.",
		`SELECT id, task_id, split, harness_hash, score, passed, total, tokens_in, tokens_out, wall_ms, error,
		 CASE WHEN split = 'train' THEN trace_path ELSE '' END AS trace_path, created_at FROM runs ORDER BY created_at DESC LIMIT ?`)
	return s
}

func cmpInt(v, def int) int {
	if v <= 0 {
		return def
	}
	return v
}
