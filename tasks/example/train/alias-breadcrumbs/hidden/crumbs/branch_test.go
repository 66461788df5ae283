package crumbs

import (
	"slices"
	"testing"
)

func TestPushBranches(t *testing.T) {
	base := Trail{"Home"}.Push("Docs").Push("Guides")
	left := base.Push("Install")
	right := base.Push("FAQ")
	if !slices.Equal(left, Trail{"Home", "Docs", "Guides", "Install"}) {
		t.Errorf("left = %v", left)
	}
	if !slices.Equal(right, Trail{"Home", "Docs", "Guides", "FAQ"}) {
		t.Errorf("right = %v", right)
	}
	long := base
	for i := 0; i < 10; i++ {
		long = long.Push("Install")
	}
	if !slices.Equal(base, Trail{"Home", "Docs", "Guides"}) {
		t.Errorf("base changed: %v", base)
	}
}
