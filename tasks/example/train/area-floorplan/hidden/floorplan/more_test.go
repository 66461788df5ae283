package floorplan

import (
	"math"
	"testing"
)

func TestCircleArea(t *testing.T) {
	if got := (Circle{2}).Area(); math.Abs(got-4*math.Pi) > 1e-9 {
		t.Fatalf("Circle{2}.Area() = %v", got)
	}
}

func TestTotalAreaMany(t *testing.T) {
	got := TotalArea([]Shape{Rect{1, 1}, Rect{2, 2}, Circle{1}, Rect{0.5, 4}})
	if want := 1 + 4 + math.Pi + 2; math.Abs(got-want) > 1e-9 {
		t.Fatalf("TotalArea = %v, want %v", got, want)
	}
	if TotalArea(nil) != 0 {
		t.Fatal("empty total")
	}
}
