package visits

import "testing"

func TestSlot(t *testing.T) {
	for _, c := range []struct {
		in              string
		y, mo, d, h, mi int
	}{
		{"01/01/2024 9:05 AM", 2024, 1, 1, 9, 5},
	} {
		tm, err := Slot(c.in)
		if err != nil {
			t.Errorf("Slot(%q): %v", c.in, err)
			continue
		}
		tm = tm.UTC()
		if tm.Year() != c.y || int(tm.Month()) != c.mo || tm.Day() != c.d || tm.Hour() != c.h || tm.Minute() != c.mi {
			t.Errorf("Slot(%q) = %v", c.in, tm)
		}
	}
}
