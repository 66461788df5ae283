package rent

import (
	"slices"
	"testing"
)

func TestSharesRemainder(t *testing.T) {
	if got := Shares(100000, 3); !slices.Equal(got, []int64{33334, 33333, 33333}) {
		t.Fatalf("Shares(100000, 3) = %v", got)
	}
	if got := Shares(10, 4); !slices.Equal(got, []int64{3, 3, 2, 2}) {
		t.Fatalf("Shares(10, 4) = %v", got)
	}
	if got := Shares(5, 7); !slices.Equal(got, []int64{1, 1, 1, 1, 1, 0, 0}) {
		t.Fatalf("Shares(5, 7) = %v", got)
	}

}
