package rgb

import (
	"fmt"
	"testing"
)

func TestSwatch(t *testing.T) {
	if got := Swatch("sunset", Color{255, 128, 0}); got != "sunset: #ff8000" {
		t.Fatalf("Swatch = %q", got)
	}
}

func TestPrintSlice(t *testing.T) {
	xs := []Color{{255, 128, 0}, {0, 0, 16}}
	if got := fmt.Sprint(xs); got != "[#ff8000 #000010]" {
		t.Fatalf("fmt.Sprint = %q", got)
	}
}
