// Package invoice reads amounts from scanned invoices.
package invoice

import (
	"fmt"
	"strconv"
	"strings"
)

// ParseAmount reads an amount like "1,299.90" (thousands separated by
// commas) and returns it in cents.
func ParseAmount(s string) (int64, error) {
	f, err := strconv.ParseFloat(strings.ReplaceAll(strings.TrimSpace(s), ",", ""), 64)
	if err != nil {
		return 0, fmt.Errorf("amount %q: %w", s, err)
	}
	return int64(f * 100), nil
}
