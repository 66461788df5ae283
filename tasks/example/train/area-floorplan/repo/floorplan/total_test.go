package floorplan

import (
	"math"
	"testing"
)

func near(a, b float64) bool { return math.Abs(a-b) < 1e-9 }

func TestTotalArea(t *testing.T) {
	got := TotalArea([]Shape{Rect{2, 3}, Circle{1}})
	if want := 6 + math.Pi; !near(got, want) {
		t.Fatalf("TotalArea = %v, want %v", got, want)
	}
}
