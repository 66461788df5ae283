package geom

import (
	"fmt"
	"testing"
)

func TestLabel(t *testing.T) {
	if got := Label("peak", Point{3, -2}); got != "peak: (3, -2)" {
		t.Fatalf("Label = %q", got)
	}
}

func TestPrintSlice(t *testing.T) {
	xs := []Point{{3, -2}, {0, 7}}
	if got := fmt.Sprint(xs); got != "[(3, -2) (0, 7)]" {
		t.Fatalf("fmt.Sprint = %q", got)
	}
}
