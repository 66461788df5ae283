package rotation

import (
	"slices"
	"testing"
)

func TestSongs(t *testing.T) {
	x := New("morning", "Intro")
	x.Append("Sunrise")
	if got := x.Songs(); !slices.Equal(got, []string{"Intro", "Sunrise"}) {
		t.Fatalf("Songs = %v", got)
	}
}
