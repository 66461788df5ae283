package shifts

import "testing"

func TestClockInFormats(t *testing.T) {
	for _, c := range []struct {
		in              string
		y, mo, d, h, mi int
	}{
		{"2024-03-15 17:30", 2024, 3, 15, 17, 30},
		{"2024-03-16 00:10", 2024, 3, 16, 0, 10},
		{"2024-03-16 13:00", 2024, 3, 16, 13, 0},
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

func TestClockInRejects(t *testing.T) {
	for _, in := range []string{"", "soon", "2024-03-15 25:00"} {
		if _, err := ClockIn(in); err == nil {
			t.Errorf("ClockIn(%q) gave no error", in)
		}
	}
}
