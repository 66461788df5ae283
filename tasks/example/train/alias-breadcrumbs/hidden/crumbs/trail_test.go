package crumbs

import (
	"slices"
	"testing"
)

func TestPush(t *testing.T) {
	a := Trail{"Home"}.Push("Docs")
	b := a.Push("Guides")
	if !slices.Equal(a, Trail{"Home", "Docs"}) || !slices.Equal(b, Trail{"Home", "Docs", "Guides"}) {
		t.Fatalf("got %v and %v", a, b)
	}
}
