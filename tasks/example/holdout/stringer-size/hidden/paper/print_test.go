package paper

import (
	"fmt"
	"testing"
)

func TestSpec(t *testing.T) {
	if got := Spec("flyer", Size{210, 297}); got != "flyer: 210x297 mm" {
		t.Fatalf("Spec = %q", got)
	}
}

func TestPrintSlice(t *testing.T) {
	xs := []Size{{210, 297}, {148, 210}}
	if got := fmt.Sprint(xs); got != "[210x297 mm 148x210 mm]" {
		t.Fatalf("fmt.Sprint = %q", got)
	}
}
