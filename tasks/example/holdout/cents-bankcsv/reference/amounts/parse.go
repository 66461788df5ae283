// Package amounts reads amounts from bank CSV exports.
package amounts

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Parse reads an amount like "1,299.90" (thousands separated by
// commas) and returns it in cents.
func Parse(s string) (int64, error) {
	f, err := strconv.ParseFloat(strings.ReplaceAll(strings.TrimSpace(s), ",", ""), 64)
	if err != nil {
		return 0, fmt.Errorf("amount %q: %w", s, err)
	}
	return int64(math.Round(f * 100)), nil
}
