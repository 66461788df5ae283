package boarding

import "testing"

func TestDeparture(t *testing.T) {
	for _, c := range []struct {
		in              string
		y, mo, d, h, mi int
	}{
		{"2024-01-01 09:05", 2024, 1, 1, 9, 5},
	} {
		tm, err := Departure(c.in)
		if err != nil {
			t.Errorf("Departure(%q): %v", c.in, err)
			continue
		}
		tm = tm.UTC()
		if tm.Year() != c.y || int(tm.Month()) != c.mo || tm.Day() != c.d || tm.Hour() != c.h || tm.Minute() != c.mi {
			t.Errorf("Departure(%q) = %v", c.in, tm)
		}
	}
}
