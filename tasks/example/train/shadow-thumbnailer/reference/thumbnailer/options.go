// Package thumbnailer reads thumbnailer settings: one "key = value" per line; blank
// lines and lines starting with # are skipped.
package thumbnailer

import (
	"fmt"
	"strconv"
	"strings"
)

// Settings are the thumbnailer settings.
type Settings struct {
	Width   int
	Quality int
	Name    string
}

// Parse reads settings from text. Numbers that are not set keep their
// defaults (320 and 80). An unknown key, or a number that does not
// parse, is an error.
func Parse(text string) (Settings, error) {
	s := Settings{Width: 320, Quality: 80}
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
		case "width", "quality":
			n, err := strconv.Atoi(val)
			if err != nil {
				return s, fmt.Errorf("line %d: %s: %w", i+1, key, err)
			}
			if key == "width" {
				s.Width = n
			} else {
				s.Quality = n
			}
		case "name":
			s.Name = val
		default:
			return s, fmt.Errorf("line %d: unknown key %q", i+1, key)
		}
	}
	return s, nil
}
