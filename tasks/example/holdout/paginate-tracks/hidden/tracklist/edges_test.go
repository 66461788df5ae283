package tracklist

import (
	"slices"
	"testing"
)

func TestChunkEdges(t *testing.T) {
	items := []string{"Intro", "Rise", "Fall", "Echo", "Drift", "Bloom", "Outro"}
	if got := Chunk(items, 3, 3); !slices.Equal(got, items[6:]) {
		t.Errorf("last page = %v, want %v", got, items[6:])
	}
	if got := Chunk(items, 1, 10); !slices.Equal(got, items) {
		t.Errorf("one big page = %v", got)
	}
	for _, p := range []int{0, -1, 4, 9} {
		if got := Chunk(items, p, 3); len(got) != 0 {
			t.Errorf("Chunk(%d) = %v, want nothing", p, got)
		}
	}
}

func TestChunksPartial(t *testing.T) {
	for _, c := range [][3]int{{7, 3, 3}, {0, 3, 0}, {1, 10, 1}, {10, 10, 1}, {11, 10, 2}} {
		if got := Chunks(c[0], c[1]); got != c[2] {
			t.Errorf("Chunks(%d, %d) = %d, want %d", c[0], c[1], got, c[2])
		}
	}
}
