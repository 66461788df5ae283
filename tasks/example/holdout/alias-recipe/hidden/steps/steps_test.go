package steps

import (
	"slices"
	"testing"
)

func TestAnd(t *testing.T) {
	a := Steps{"chop"}.And("fry")
	b := a.And("season")
	if !slices.Equal(a, Steps{"chop", "fry"}) || !slices.Equal(b, Steps{"chop", "fry", "season"}) {
		t.Fatalf("got %v and %v", a, b)
	}
}
