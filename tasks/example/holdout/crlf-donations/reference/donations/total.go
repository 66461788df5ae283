// Package donations reads donation exports.
package donations

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// Header is the first line of every export.
const Header = "donor,euros"

// Raised returns the sum of the euros column of an export: the header line,
// then one "name,euros" line per row.
func Raised(text string) (int, error) {
	text = strings.ReplaceAll(text, "\r\n", "\n")
	lines := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
	if lines[0] != Header {
		return 0, errors.New("not a donation export")
	}
	sum := 0
	for i, line := range lines[1:] {
		_, val, ok := strings.Cut(line, ",")
		if !ok {
			return 0, fmt.Errorf("line %d: no %q", i+2, ",")
		}
		n, err := strconv.Atoi(val)
		if err != nil {
			return 0, fmt.Errorf("line %d: %w", i+2, err)
		}
		sum += n
	}
	return sum, nil
}
