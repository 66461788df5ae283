// Package tsv writes tab-separated records.
package tsv

import "strings"

// Record joins fields into one line, separated by tabs. A field holding
// a tab, a double quote or a newline is wrapped in double quotes, and
// a double quote inside it is written twice.
func Record(fields []string) string {
	out := make([]string, len(fields))
	for i, f := range fields {
		if strings.ContainsAny(f, "\t\"\n") {
			f = `"` + strings.ReplaceAll(f, `"`, `""`) + `"`
		}
		out[i] = f
	}
	return strings.Join(out, "\t")
}
