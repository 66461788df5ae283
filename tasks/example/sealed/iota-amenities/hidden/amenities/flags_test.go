package amenities

import "testing"

func TestString(t *testing.T) {
	for _, c := range []struct {
		p    Amenities
		want string
	}{
		{0, "none"},
		{Wifi, "wifi"},
		{Projector | Whiteboard, "projector+whiteboard"},
		{Phone, "phone"},
		{Wifi | Projector | Whiteboard | Phone, "wifi+projector+whiteboard+phone"},
	} {
		if got := c.p.String(); got != c.want {
			t.Errorf("String of %d = %q, want %q", c.p, got, c.want)
		}
	}
}

func TestDistinctFlags(t *testing.T) {
	all := []Amenities{Wifi, Projector, Whiteboard, Phone}
	for i, a := range all {
		if a == 0 {
			t.Errorf("flag %d is the empty set", i)
		}
		for j, b := range all {
			if i != j && a&b != 0 {
				t.Errorf("flags %d and %d overlap", i, j)
			}
		}
	}
	if (Projector | Whiteboard).Has(Phone) {
		t.Error("Projector|Whiteboard holds Phone")
	}
}
