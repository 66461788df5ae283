// Package laptime reads lap durations like "1m05s" or "48s".
package laptime

import (
	"errors"
	"strconv"
)

// Seconds returns the number of seconds in s, made of an optional
// minutes part ("2m") followed by an optional seconds part ("15s").
func Seconds(s string) (int, error) {
	total, num := 0, ""
	for _, r := range s {
		switch {
		case r >= '0' && r <= '9':
			num += string(r)
		case r == 'm' || r == 's':
			n, err := strconv.Atoi(num)
			if err != nil {
				return 0, errors.New("missing number before " + string(r))
			}
			if r == 'm' {
				total += n * 60
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
