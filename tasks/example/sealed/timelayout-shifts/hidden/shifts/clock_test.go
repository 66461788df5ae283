package shifts

import "testing"

func TestClockIn(t *testing.T) {
	for _, c := range []struct {
		in              string
		y, mo, d, h, mi int
	}{
		{"2024-03-15 09:30", 2024, 3, 15, 9, 30},
	} {
		tm, err := ClockIn(c.in)
		if err != nil {
			t.Errorf("ClockIn(%q): %v", c.in, err)
			continue
		}
		tm = tm.UTC()
		if tm.Year() != c.y || int(tm.Month()) != c.mo || tm.Day() != c.d || tm.Hour() != c.h || tm.Minute() != c.mi {
			t.Errorf("ClockIn(%q) = %v", c.in, tm)
		}
	}
}
