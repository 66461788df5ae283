package tiles

import (
	"math"
	"testing"
)

func TestSquareArea(t *testing.T) {
	if got := (Square{0.5}).Area(); math.Abs(got-0.25) > 1e-9 {
		t.Fatalf("Square{0.5}.Area() = %v, want %v", got, 0.25)
	}
}

func TestTotalMany(t *testing.T) {
	got := Total([]Shape{Circle{1}, Square{2}, Square{1}, Circle{3}})
	if want := math.Pi + 4 + 1 + 9*math.Pi; math.Abs(got-want) > 1e-9 {
		t.Fatalf("Total = %v, want %v", got, want)
	}
	if Total(nil) != 0 {
		t.Fatal("empty total")
	}
}
