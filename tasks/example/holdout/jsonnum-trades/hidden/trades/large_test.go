package trades

import (
	"slices"
	"testing"
)

func TestSequenceLarge(t *testing.T) {
	got, err := Sequence([]byte(`[{"seq":1152921504606846977,"side":"buy"},{"seq":1152921504606846978,"side":"buy"},{"seq":1152921504606846979,"side":"buy"}]`))
	if err != nil || !slices.Equal(got, []int64{1152921504606846977, 1152921504606846978, 1152921504606846979}) {
		t.Fatalf("Sequence = %v, %v\nwant %v", got, err, []int64{1152921504606846977, 1152921504606846978, 1152921504606846979})
	}
}
