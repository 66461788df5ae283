package rotation

import (
	"slices"
	"testing"
)

func TestSongsIsACopy(t *testing.T) {
	x := New("morning", "Intro", "Sunrise")
	got := x.Songs()
	got[0] = "Coffee"
	if x.Songs()[0] != "Intro" {
		t.Fatalf("changing the result of Songs changed the Rotation: %v", x.Songs())
	}
}

func TestNewCopies(t *testing.T) {
	in := []string{"Intro", "Sunrise", "Coffee"}
	x := New("morning", in...)
	in[1] = "Traffic"
	if got := x.Songs(); !slices.Equal(got, []string{"Intro", "Sunrise", "Coffee"}) {
		t.Fatalf("changing the slice passed to New changed the Rotation: %v", got)
	}
}
