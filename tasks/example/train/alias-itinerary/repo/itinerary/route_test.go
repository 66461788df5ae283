package itinerary

import (
	"slices"
	"testing"
)

func TestThen(t *testing.T) {
	a := Route{"Lisbon"}.Then("Porto")
	b := a.Then("Braga")
	if !slices.Equal(a, Route{"Lisbon", "Porto"}) || !slices.Equal(b, Route{"Lisbon", "Porto", "Braga"}) {
		t.Fatalf("got %v and %v", a, b)
	}
}
