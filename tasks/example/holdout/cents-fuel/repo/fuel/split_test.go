package fuel

import (
	"slices"
	"testing"
)

func TestSplit(t *testing.T) {
	if got := Split(900, 3); !slices.Equal(got, []int64{300, 300, 300}) {
		t.Fatalf("Split(900, 3) = %v", got)
	}
	if got := Split(5, 1); !slices.Equal(got, []int64{5}) {
		t.Fatalf("Split(5, 1) = %v", got)
	}
}
