// Package semis writes CSV with semicolons, as European spreadsheets expect.
package semis

import "strings"

// Row joins fields into one line, separated by semicolons. A field holding
// a semicolon, a double quote or a newline is wrapped in double quotes, and
// a double quote inside it is written twice.
func Row(fields []string) string {
	out := make([]string, len(fields))
	for i, f := range fields {
		if strings.ContainsAny(f, ";") {
			f = `"` + strings.ReplaceAll(f, `"`, `""`) + `"`
		}
		out[i] = f
	}
	return strings.Join(out, ";")
}
