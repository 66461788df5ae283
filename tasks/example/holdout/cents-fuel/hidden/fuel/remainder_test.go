package fuel

import (
	"slices"
	"testing"
)

func TestSplitRemainder(t *testing.T) {
	if got := Split(100, 3); !slices.Equal(got, []int64{34, 33, 33}) {
		t.Fatalf("Split(100, 3) = %v", got)
	}
	if got := Split(7, 4); !slices.Equal(got, []int64{2, 2, 2, 1}) {
		t.Fatalf("Split(7, 4) = %v", got)
	}
	if got := Split(2, 5); !slices.Equal(got, []int64{1, 1, 0, 0, 0}) {
		t.Fatalf("Split(2, 5) = %v", got)
	}
}
