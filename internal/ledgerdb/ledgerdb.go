// Package ledgerdb reads the anchor's ledger for people: read-only queries
// whose rows come back as column -> value maps (Query), for the dashboard
// and the MCP server, or as typed rows (Scan, Generations, Head, Meta) for
// the evolver, plan and the other readers. Nothing here writes; the anchor
// owns the ledger. Every text value comes back through show.Text: control
// and format characters replaced, line breaks and tabs kept, capped.
//
// Every query sees the ledger through temporary views that keep two rules,
// whatever the query says:
//
//   - Holdout and sealed error text never leaves the ledger. runs.error is the
//     harness's own last output, so anything it wants to say; for a run whose
//     split is not train it reads as "" or "withheld: <outcome>", and its
//     trace_path as "". Reading the stored column any other way (main.runs,
//     an attached copy) is refused by an authorizer.
//   - Old ledgers read like new ones: columns added since (runs.repeat,
//     outcome and group_id, the gate's evidence and goal in generations,
//     the meta table) read as their defaults or NULL. An old run's outcome
//     is "ok" when it has no error and "error" when it has one (its
//     category was not kept), whether the column is missing or an upgrade
//     added it empty.
package ledgerdb

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"modernc.org/sqlite"

	"ratchet/internal/show"
)

// Withheld is how the error of a holdout or sealed run reads: the word and
// the run's outcome, e.g. "withheld: crash".
const Withheld = "withheld: "

// ErrNoLedger is the error of a query on a ledger that does not exist.
var ErrNoLedger = errors.New("no ledger")

// Query runs q on the ledger at path, opened read-only, through the views
// described in the package doc. Unqualified table names (runs, generations,
// meta) resolve to those views.
func Query(ctx context.Context, path, q string, args ...any) ([]map[string]any, error) {
	abs, _ := filepath.Abs(path)
	if _, err := os.Stat(abs); err != nil {
		return nil, fmt.Errorf("%w at %s: set ANCHOR_HOME to the anchor's home, or run anchor init first", ErrNoLedger, abs)
	}
	db, err := sql.Open("sqlite", "file:"+abs+"?mode=ro&_pragma=busy_timeout(5000)")
	if err != nil {
		return nil, err
	}
	defer db.Close()
	conn, err := db.Conn(ctx) // the temporary views live on one connection
	if err != nil {
		return nil, fmt.Errorf("open the ledger %s: %w", abs, err)
	}
	defer conn.Close()
	if err := views(ctx, conn); err != nil {
		return nil, fmt.Errorf("read the ledger %s: %w; is it an anchor ledger?", abs, err)
	}
	rows, err := conn.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, fmt.Errorf("query the ledger: %w", err)
	}
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		return nil, fmt.Errorf("query the ledger: %w", err)
	}
	out := []map[string]any{}
	for rows.Next() {
		vals, ptrs := make([]any, len(cols)), make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			return nil, fmt.Errorf("read a ledger row: %w", err)
		}
		row := map[string]any{}
		for i, c := range cols {
			if b, ok := vals[i].([]byte); ok {
				vals[i] = string(b)
			}
			if s, ok := vals[i].(string); ok {
				vals[i] = show.Text(s, limit(c)) // any text may be an agent's: it is read for people (#21)
			}
			row[c] = vals[i]
		}
		out = append(out, row)
	}
	return out, rows.Err()
}

// textLimit caps a text value: a hypothesis or an error, never a book.
const textLimit = 20000

// limit is how many runes of column col a reader gets. generations.run_ids
// lists every run a decision saw, ids the anchor made itself (a full suite
// at two repeats is about 27,000 characters): cut, a decision could not
// be re-derived.
func limit(col string) int {
	if col == "run_ids" {
		return math.MaxInt
	}
	return textLimit
}

// oldOutcome is the outcome of a run recorded before outcomes were kept.
const oldOutcome = "CASE WHEN COALESCE(error, '') = '' THEN 'ok' ELSE 'error' END"

// added are the columns newer anchors write, with how an older ledger's
// rows read them.
var added = map[string][][2]string{
	"runs": {{"repeat", "0"}, {"outcome", oldOutcome}, {"judge", "''"}, {"group_id", "''"}},
	"generations": {{"goal", "''"}, {"train_fixed", "NULL"}, {"train_broken", "NULL"}, {"train_p", "NULL"},
		{"holdout_fixed", "NULL"}, {"holdout_broken", "NULL"}, {"holdout_p", "NULL"}},
}

// secret are the runs columns only a train run shows, and what others read.
var secret = map[string]string{
	"error":      `CASE WHEN split = 'train' THEN error WHEN COALESCE(error, '') = '' THEN '' ELSE '` + Withheld + `' || %s END`,
	"trace_path": `CASE WHEN split = 'train' THEN trace_path ELSE '' END`,
}

// views makes the temporary views runs, generations and meta over the
// ledger's tables on conn, then installs the authorizer that keeps every
// other path to the secret columns shut.
func views(ctx context.Context, conn *sql.Conn) error {
	for _, table := range []string{"runs", "generations"} {
		cols, err := columns(ctx, conn, table)
		if err != nil {
			return err
		}
		if len(cols) == 0 {
			continue // a ledger without the table: queries of it fail as they would
		}
		outcome := oldOutcome
		if slices.Contains(cols, "outcome") {
			outcome = "COALESCE(NULLIF(outcome, ''), " + oldOutcome + ")"
		}
		sel := []string{}
		for _, c := range cols {
			expr, hidden := secret[c]
			switch {
			case table == "runs" && hidden:
				sel = append(sel, strings.ReplaceAll(expr, "%s", "("+outcome+")")+" AS "+quote(c))
			case table == "runs" && c == "outcome":
				sel = append(sel, outcome+" AS outcome")
			default:
				sel = append(sel, quote(c))
			}
		}
		for _, a := range added[table] {
			if !slices.Contains(cols, a[0]) {
				sel = append(sel, a[1]+" AS "+quote(a[0]))
			}
		}
		// rowid is kept for ordering ties, as on the table.
		q := `CREATE TEMP VIEW ` + table + ` AS SELECT ` + strings.Join(sel, ", ") + `, rowid AS rowid FROM main.` + table
		if _, err := conn.ExecContext(ctx, q); err != nil {
			return err
		}
	}
	cols, err := columns(ctx, conn, "meta")
	if err != nil {
		return err
	}
	if len(cols) == 0 {
		if _, err := conn.ExecContext(ctx, `CREATE TEMP VIEW meta AS SELECT '' AS key, '' AS value WHERE 0`); err != nil {
			return err
		}
	}
	return conn.Raw(func(dc any) error {
		reg, ok := dc.(sqlite.AuthorizerRegisterer)
		if !ok {
			return fmt.Errorf("the sqlite driver has no authorizer")
		}
		return reg.RegisterAuthorizer(authorize)
	})
}

// authorize lets a query read, and read the secret runs columns only
// through the temporary view runs: once the views are made, nothing may be
// created, dropped, attached or written, and no pragma but table_info runs.
func authorize(action sqlite.AuthorizerActionCode, table, column, db, view string) sqlite.AuthorizerReturnCode {
	switch action {
	case sqlite.AuthSelect, sqlite.AuthFunction, sqlite.AuthRecursive, sqlite.AuthTransaction:
		return sqlite.AuthorizerOK
	case sqlite.AuthPragma:
		if table == "table_info" || table == "table_xinfo" {
			return sqlite.AuthorizerOK
		}
	case sqlite.AuthRead:
		if table != "runs" || secret[column] == "" || db == "temp" || view == "runs" {
			return sqlite.AuthorizerOK
		}
	}
	return sqlite.AuthorizerDeny
}

// columns lists the columns of the ledger's own table (none when it has no
// such table).
func columns(ctx context.Context, conn *sql.Conn, table string) ([]string, error) {
	rows, err := conn.QueryContext(ctx, `SELECT name FROM pragma_table_info(?, 'main')`, table)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	cols := []string{}
	for rows.Next() {
		var c string
		if err := rows.Scan(&c); err != nil {
			return nil, err
		}
		cols = append(cols, c)
	}
	return cols, rows.Err()
}

func quote(name string) string { return `"` + strings.ReplaceAll(name, `"`, `""`) + `"` }
