package tiles

import (
	"math"
	"testing"
)

func near(a, b float64) bool { return math.Abs(a-b) < 1e-9 }

func TestTotal(t *testing.T) {
	got := Total([]Shape{Square{3}, Circle{1}})
	if want := 9 + math.Pi; !near(got, want) {
		t.Fatalf("Total = %v, want %v", got, want)
	}
}
