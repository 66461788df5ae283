// Package statement writes bank statements as CSV.
package statement

import "strings"

// Line joins fields into one line, separated by commas. A field holding
// a comma, a double quote or a newline is wrapped in double quotes, and
// a double quote inside it is written twice.
func Line(fields []string) string {
	out := make([]string, len(fields))
	for i, f := range fields {
		if strings.ContainsAny(f, ",\"\n") {
			f = `"` + f + `"`
		}
		out[i] = f
	}
	return strings.Join(out, ",")
}
