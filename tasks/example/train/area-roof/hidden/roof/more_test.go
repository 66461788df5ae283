package roof

import (
	"math"
	"testing"
)

func TestTriangleArea(t *testing.T) {
	if got := (Triangle{10, 5}).Area(); math.Abs(got-25.0) > 1e-9 {
		t.Fatalf("Triangle{10, 5}.Area() = %v, want %v", got, 25.0)
	}
}

func TestCoverageMany(t *testing.T) {
	got := Coverage([]Shape{Triangle{2, 2}, Circle{2}, Triangle{6, 1}})
	if want := 2 + 4*math.Pi + 3; math.Abs(got-want) > 1e-9 {
		t.Fatalf("Coverage = %v, want %v", got, want)
	}
	if Coverage(nil) != 0 {
		t.Fatal("empty total")
	}
}
