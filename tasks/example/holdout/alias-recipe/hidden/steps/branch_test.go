package steps

import (
	"slices"
	"testing"
)

func TestAndBranches(t *testing.T) {
	base := Steps{"chop"}.And("fry").And("season")
	left := base.And("bake")
	right := base.And("serve")
	if !slices.Equal(left, Steps{"chop", "fry", "season", "bake"}) {
		t.Errorf("left = %v", left)
	}
	if !slices.Equal(right, Steps{"chop", "fry", "season", "serve"}) {
		t.Errorf("right = %v", right)
	}
	long := base
	for i := 0; i < 10; i++ {
		long = long.And("bake")
	}
	if !slices.Equal(base, Steps{"chop", "fry", "season"}) {
		t.Errorf("base changed: %v", base)
	}
}
