// Package daemon reads server settings: one "key = value" per line; blank
// lines and lines starting with # are skipped.
package daemon

import (
	"fmt"
	"strconv"
	"strings"
)

// Settings are the server settings.
type Settings struct {
	Port    int
	Workers int
	Name    string
}

// Parse reads settings from text. Numbers that are not set keep their
// defaults (8080 and 4). An unknown key, or a number that does not
// parse, is an error.
func Parse(text string) (Settings, error) {
	s := Settings{Port: 8080, Workers: 4}
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
		case "port":
			n, err := strconv.Atoi(val)
			if err != nil {
				break
			}
			s.Port = n
		case "workers":
			n, err := strconv.Atoi(val)
			if err != nil {
				break
			}
			s.Workers = n
		case "name":
			s.Name = val
		default:
			return s, fmt.Errorf("line %d: unknown key %q", i+1, key)
		}
	}
	return s, err
}
