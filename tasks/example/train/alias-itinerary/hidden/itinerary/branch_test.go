package itinerary

import (
	"slices"
	"testing"
)

func TestThenBranches(t *testing.T) {
	base := Route{"Lisbon"}.Then("Porto").Then("Braga")
	left := base.Then("Vigo")
	right := base.Then("Coimbra")
	if !slices.Equal(left, Route{"Lisbon", "Porto", "Braga", "Vigo"}) {
		t.Errorf("left = %v", left)
	}
	if !slices.Equal(right, Route{"Lisbon", "Porto", "Braga", "Coimbra"}) {
		t.Errorf("right = %v", right)
	}
	long := base
	for i := 0; i < 10; i++ {
		long = long.Then("Vigo")
	}
	if !slices.Equal(base, Route{"Lisbon", "Porto", "Braga"}) {
		t.Errorf("base changed: %v", base)
	}
}
