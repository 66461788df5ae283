// Package laps formats lap times.
package laps

import "fmt"

// Lap is a lap time in minutes, seconds and milliseconds.
type Lap struct {
	Min, Sec, Milli int
}

// String formats x like "1:23.456".
func (x *Lap) String() string {
	return fmt.Sprintf("%d:%02d.%03d", x.Min, x.Sec, x.Milli)
}

// Result returns a line of the results board: label, a colon, a space and the
// lap time, like "Hamilton: 1:23.456".
func Result(label string, x Lap) string {
	return fmt.Sprintf("%s: %v", label, x)
}
