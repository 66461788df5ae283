package laps

import (
	"fmt"
	"testing"
)

func TestResult(t *testing.T) {
	if got := Result("Hamilton", Lap{1, 23, 456}); got != "Hamilton: 1:23.456" {
		t.Fatalf("Result = %q", got)
	}
}

func TestPrintSlice(t *testing.T) {
	xs := []Lap{{1, 23, 456}, {0, 59, 7}}
	if got := fmt.Sprint(xs); got != "[1:23.456 0:59.007]" {
		t.Fatalf("fmt.Sprint = %q", got)
	}
}
