package tachograph

import "testing"

func TestLogged(t *testing.T) {
	for _, c := range []struct {
		in              string
		y, mo, d, h, mi int
	}{
		{"05.05.2023 10:00", 2023, 5, 5, 10, 0},
	} {
		tm, err := Logged(c.in)
		if err != nil {
			t.Errorf("Logged(%q): %v", c.in, err)
			continue
		}
		tm = tm.UTC()
		if tm.Year() != c.y || int(tm.Month()) != c.mo || tm.Day() != c.d || tm.Hour() != c.h || tm.Minute() != c.mi {
			t.Errorf("Logged(%q) = %v", c.in, tm)
		}
	}
}
