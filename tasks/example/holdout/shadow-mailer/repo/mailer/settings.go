// Package mailer reads mailer settings: one "key = value" per line; blank
// lines and lines starting with # are skipped.
package mailer

import (
	"fmt"
	"strconv"
	"strings"
)

// Settings are the mailer settings.
type Settings struct {
	BatchSize  int
	RatePerMin int
	Name       string
}

// Parse reads settings from text. Numbers that are not set keep their
// defaults (100 and 60). An unknown key, or a number that does not
// parse, is an error.
func Parse(text string) (Settings, error) {
	s := Settings{BatchSize: 100, RatePerMin: 60}
	var err error
	for i, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		key, val, ok := strings.Cut(line, "=")
		if !ok {
			return s, fmt.Errorf("line %d: want key = value", i+1)
		}
		key, val = strings.TrimSpace(key), strings.TrimSpace(val)
		switch key {
		case "batch":
			n, err := strconv.Atoi(val)
			if err != nil {
				break
			}
			s.BatchSize = n
		case "rate":
			n, err := strconv.Atoi(val)
			if err != nil {
				break
			}
			s.RatePerMin = n
		case "name":
			s.Name = val
		default:
			return s, fmt.Errorf("line %d: unknown key %q", i+1, key)
		}
	}
	return s, err
}
