package semver

import (
	"fmt"
	"testing"
)

func TestRow(t *testing.T) {
	if got := Row("latest", Version{1, 4, 2}); got != "latest: v1.4.2" {
		t.Fatalf("Row = %q", got)
	}
}

func TestPrintSlice(t *testing.T) {
	xs := []Version{{1, 4, 2}, {0, 9, 0}}
	if got := fmt.Sprint(xs); got != "[v1.4.2 v0.9.0]" {
		t.Fatalf("fmt.Sprint = %q", got)
	}
}
