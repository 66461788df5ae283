// Package entrydate formats diary dates.
package entrydate

import "fmt"

// Date is a calendar date.
type Date struct {
	Year, Month, Day int
}

// String formats x like "2024-02-09".
func (x *Date) String() string {
	return fmt.Sprintf("%04d-%02d-%02d", x.Year, x.Month, x.Day)
}

// Heading returns a line of the diary: label, a colon, a space and the
// date, like "Friday: 2024-02-09".
func Heading(label string, x Date) string {
	return fmt.Sprintf("%s: %v", label, x)
}
