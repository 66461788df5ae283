// Package labelcfg reads label printer files: one "key= value" per line.
package labelcfg

import "strings"

// Parse returns the settings of text. Lines without "=" are skipped;
// spaces around keys and values are dropped.
func Parse(text string) map[string]string {
	m := map[string]string{}
	for _, line := range strings.Split(text, "\n") {
		line = strings.TrimSuffix(line, "\r")
		k, val, ok := strings.Cut(line, "=")
		if !ok {
			continue
		}
		m[strings.Trim(k, " ")] = strings.Trim(val, " ")
	}
	return m
}
