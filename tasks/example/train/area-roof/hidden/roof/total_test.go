package roof

import (
	"math"
	"testing"
)

func near(a, b float64) bool { return math.Abs(a-b) < 1e-9 }

func TestCoverage(t *testing.T) {
	got := Coverage([]Shape{Circle{1}, Triangle{4, 3}})
	if want := math.Pi + 6; !near(got, want) {
		t.Fatalf("Coverage = %v, want %v", got, want)
	}
}
