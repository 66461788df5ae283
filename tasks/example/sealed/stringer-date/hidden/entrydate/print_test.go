package entrydate

import (
	"fmt"
	"testing"
)

func TestHeading(t *testing.T) {
	if got := Heading("Friday", Date{2024, 2, 9}); got != "Friday: 2024-02-09" {
		t.Fatalf("Heading = %q", got)
	}
}

func TestPrintSlice(t *testing.T) {
	xs := []Date{{2024, 2, 9}, {1999, 12, 31}}
	if got := fmt.Sprint(xs); got != "[2024-02-09 1999-12-31]" {
		t.Fatalf("fmt.Sprint = %q", got)
	}
}
