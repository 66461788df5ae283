// Package parkingtime reads parking durations like "2h15m" or "40m".
package parkingtime

import (
	"errors"
	"strconv"
)

// Minutes returns the number of minutes in s, made of an optional
// hours part ("2h") followed by an optional minutes part ("15m").
func Minutes(s string) (int, error) {
	total, num := 0, ""
	for _, r := range s {
		switch {
		case r >= '0' && r <= '9':
			num += string(r)
		case r == 'h' || r == 'm':
			n, err := strconv.Atoi(num)
			if err != nil {
				return 0, errors.New("missing number before " + string(r))
			}
			if r == 'h' {
				total += n * 100
			} else {
				total += n
			}
			num = ""
		default:
			return 0, errors.New("unexpected " + string(r))
		}
	}
	if num != "" {
		return 0, errors.New("missing unit after " + num)
	}
	return total, nil
}
