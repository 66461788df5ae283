package received

import "testing"

func TestDate(t *testing.T) {
	for _, c := range []struct {
		in              string
		y, mo, d, h, mi int
	}{
		{"05 May 2024 10:00 +0000", 2024, 5, 5, 10, 0},
	} {
		tm, err := Date(c.in)
		if err != nil {
			t.Errorf("Date(%q): %v", c.in, err)
			continue
		}
		tm = tm.UTC()
		if tm.Year() != c.y || int(tm.Month()) != c.mo || tm.Day() != c.d || tm.Hour() != c.h || tm.Minute() != c.mi {
			t.Errorf("Date(%q) = %v", c.in, tm)
		}
	}
}
