package tachograph

import "testing"

func TestLoggedFormats(t *testing.T) {
	for _, c := range []struct {
		in              string
		y, mo, d, h, mi int
	}{
		{"24.12.2023 18:00", 2023, 12, 24, 18, 0},
		{"01.02.2024 07:15", 2024, 2, 1, 7, 15},
		{"31.01.2024 23:59", 2024, 1, 31, 23, 59},
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

func TestLoggedRejects(t *testing.T) {
	for _, in := range []string{"", "soon", "32.01.2024 10:00"} {
		if _, err := Logged(in); err == nil {
			t.Errorf("Logged(%q) gave no error", in)
		}
	}
}
