package trades

import (
	"slices"
	"testing"
)

func TestSequence(t *testing.T) {
	got, err := Sequence([]byte(`[{"seq":3,"side":"buy"},{"seq":4,"side":"buy"},{"seq":5,"side":"buy"}]`))
	if err != nil || !slices.Equal(got, []int64{3, 4, 5}) {
		t.Fatalf("Sequence = %v, %v", got, err)
	}
	if _, err := Sequence([]byte(`[{"side":"buy"}]`)); err == nil {
		t.Fatal("an item without seq gave no error")
	}
}
