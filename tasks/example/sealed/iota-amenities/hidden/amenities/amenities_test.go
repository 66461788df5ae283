package amenities

import "testing"

func TestHas(t *testing.T) {
	p := Projector | Whiteboard
	if !p.Has(Projector) || !p.Has(Whiteboard) || !p.Has(Projector|Whiteboard) {
		t.Fatalf("%d does not hold Projector and Whiteboard", p)
	}
	if Projector.Has(Whiteboard) || Whiteboard.Has(Projector) {
		t.Fatal("Projector and Whiteboard overlap")
	}
}
