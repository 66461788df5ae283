// Package mcpdoor is the MCP front door, built on the official Go SDK: an
// "ask" tool that runs the head harness on a project, "sessions", and
// read-only queries of the anchor's ledger ("ledger_generations",
// "ledger_runs") for editors.
package mcpdoor

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"ratchet/door"
	"ratchet/door/serve"
	"ratchet/internal/ledgerdb"
	"ratchet/internal/show"
)

// AskInput is the ask tool's arguments.
type AskInput struct {
	Project string `json:"project,omitempty" jsonschema:"path of the project folder to work on; it must lie in a folder the operator named (--project, --root, or where ratchet mcp started); default: that folder when there is only one"`
	Request string `json:"request" jsonschema:"what the agent should do"`
	Session string `json:"session,omitempty" jsonschema:"a session id from an earlier answer, to continue it"`
}

// LedgerInput limits a ledger query.
type LedgerInput struct {
	Limit int `json:"limit,omitempty" jsonschema:"rows to return, newest first (default 20)"`
}

// New returns the MCP server. ledger is the anchor's ledger.db; it is opened
// read-only for each query. With ledger "" (none named) the ledger tools say
// so. The sessions tool lists only sessions of projects the door's roots
// admit, and ask continues a session only on the project it belongs to.
func New(d *door.Door, ledger string) *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "ratchet", Version: "0.1"}, nil)
	mcp.AddTool(s, &mcp.Tool{Name: "ask", Description: "Run Ratchet's coding agent (the head harness) on a project folder: it reads, edits and tests the code, and answers with what it did."},
		func(ctx context.Context, req *mcp.CallToolRequest, in AskInput) (*mcp.CallToolResult, door.Record, error) {
			in.Project = cmp.Or(in.Project, d.DefaultProject())
			if err := sameProject(d, in.Project, in.Session); err != nil {
				return nil, door.Record{}, err
			}
			rec, err := d.Ask(ctx, door.Request{Project: in.Project, Text: in.Request, Session: in.Session}, progress(ctx, req))
			if err != nil {
				return nil, door.Record{}, err
			}
			shown, err := show.Clean(rec) // the answer, calls and file names are the agent's
			// A model server that never answered is a failed call, not the agent's answer.
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: serve.Summary(rec)}},
				IsError: rec.ModelDown()}, shown, err
		})
	mcp.AddTool(s, &mcp.Tool{Name: "sessions", Description: "List the agent's sessions, most recent first."},
		func(ctx context.Context, _ *mcp.CallToolRequest, _ struct{}) (*mcp.CallToolResult, map[string]any, error) {
			ss, err := d.Sessions()
			if err != nil {
				return nil, nil, err
			}
			shown := []door.Session{}
			for _, s := range ss {
				if d.Admits(s.Project) {
					shown = append(shown, s)
				}
			}
			shown, err = show.Clean(shown)
			return nil, map[string]any{"sessions": shown}, err
		})
	query := func(name, desc, q string) {
		mcp.AddTool(s, &mcp.Tool{Name: name, Description: desc},
			func(ctx context.Context, _ *mcp.CallToolRequest, in LedgerInput) (*mcp.CallToolResult, map[string]any, error) {
				if ledger == "" {
					return nil, nil, errors.New("no ledger named: set --ledger, ANCHOR_HOME, RATCHET_LEDGER or ~/.config/ratchet/config")
				}
				// A negative limit means the default too, never SQLite's "no limit".
				rows, err := ledgerdb.Query(ctx, ledger, q, cmp.Or(max(in.Limit, 0), 20))
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

// progress sends each progress line of the run (the harness, the test
// command, every step and tool call, the tests before and after) as an MCP
// progress notification, when the client asked for them with a progress
// token; nil otherwise.
func progress(ctx context.Context, req *mcp.CallToolRequest) io.Writer {
	if req == nil || req.Params == nil || req.Params.GetProgressToken() == nil || req.Session == nil {
		return nil
	}
	token, n := req.Params.GetProgressToken(), 0
	return lineWriter(func(line string) {
		n++
		req.Session.NotifyProgress(ctx, &mcp.ProgressNotificationParams{ProgressToken: token, Message: line, Progress: float64(n)})
	})
}

// lineWriter calls its function once per whole line written, without the newline.
type lineWriter func(string)

func (f lineWriter) Write(p []byte) (int, error) {
	for line := range strings.SplitSeq(strings.TrimRight(string(p), "\n"), "\n") {
		if strings.TrimSpace(line) != "" {
			f(line)
		}
	}
	return len(p), nil
}

// sameProject refuses to continue a session on a project other than its own:
// a session's records (requests, calls, observations: file contents) go in
// front of the model, so continuing one on another project would carry a
// project outside the roots into one inside them. An unknown session gets
// the same answer, so ids cannot be probed.
func sameProject(d *door.Door, project, session string) error {
	if session == "" {
		return nil
	}
	refused := fmt.Errorf("%w: unknown session %q for project %q; the sessions tool lists the sessions this door may continue", door.ErrForbidden, session, project)
	abs, err := filepath.Abs(project)
	if err != nil {
		return refused
	}
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return refused
	}
	recs, err := d.Records(session)
	if err != nil || len(recs) == 0 {
		return refused
	}
	for _, r := range recs {
		if r.Project != real {
			return refused
		}
	}
	return nil
}
