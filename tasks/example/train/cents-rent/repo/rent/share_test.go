package rent

import (
	"slices"
	"testing"
)

func TestShares(t *testing.T) {
	if got := Shares(120000, 4); !slices.Equal(got, []int64{30000, 30000, 30000, 30000}) {
		t.Fatalf("Shares(120000, 4) = %v", got)
	}
	if got := Shares(999, 1); !slices.Equal(got, []int64{999}) {
		t.Fatalf("Shares(999, 1) = %v", got)
	}

}
