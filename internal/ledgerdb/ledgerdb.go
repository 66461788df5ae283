// Package ledgerdb reads the anchor's ledger for people: read-only queries
// whose rows come back as column -> value maps, for the dashboard and the
// MCP server. Nothing here writes; the anchor owns the ledger.
package ledgerdb

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"

	_ "modernc.org/sqlite"
)

// Query runs q on the ledger at path, opened read-only.
func Query(ctx context.Context, path, q string, args ...any) ([]map[string]any, error) {
	abs, _ := filepath.Abs(path)
	if _, err := os.Stat(abs); err != nil {
		return nil, fmt.Errorf("no ledger at %s: set ANCHOR_HOME to the anchor's home, or run anchor init first", abs)
	}
	db, err := sql.Open("sqlite", "file:"+abs+"?mode=ro&_pragma=busy_timeout(5000)")
	if err != nil {
		return nil, err
	}
	defer db.Close()
	rows, err := db.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, fmt.Errorf("query the ledger: %w", err)
	}
	defer rows.Close()
	cols, _ := rows.Columns()
	out := []map[string]any{}
	for rows.Next() {
		vals, ptrs := make([]any, len(cols)), make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			return nil, err
		}
		row := map[string]any{}
		for i, c := range cols {
			if b, ok := vals[i].([]byte); ok {
				vals[i] = string(b)
			}
			row[c] = vals[i]
		}
		out = append(out, row)
	}
	return out, rows.Err()
}
