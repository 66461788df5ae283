package boarding

import "testing"

func TestDepartureFormats(t *testing.T) {
	for _, c := range []struct {
		in              string
		y, mo, d, h, mi int
	}{
		{"2024-03-15 17:30", 2024, 3, 15, 17, 30},
		{"2023-12-05 00:45", 2023, 12, 5, 0, 45},
		{"2025-02-10 12:00", 2025, 2, 10, 12, 0},
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

func TestDepartureRejects(t *testing.T) {
	for _, in := range []string{"", "soon", "2024-13-01 10:00"} {
		if _, err := Departure(in); err == nil {
			t.Errorf("Departure(%q) gave no error", in)
		}
	}
}
