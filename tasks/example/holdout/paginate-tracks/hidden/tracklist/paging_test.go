package tracklist

import (
	"slices"
	"testing"
)

func TestChunk(t *testing.T) {
	items := []string{"Intro", "Rise", "Fall", "Echo", "Drift", "Bloom", "Outro"}[:6]
	if got := Chunk(items, 2, 3); !slices.Equal(got, items[3:6]) {
		t.Fatalf("Chunk(2) = %v", got)
	}
	if got := Chunks(6, 3); got != 2 {
		t.Fatalf("Chunks(6, 3) = %d, want 2", got)
	}
}
