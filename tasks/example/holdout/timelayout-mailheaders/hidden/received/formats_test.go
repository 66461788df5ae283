package received

import "testing"

func TestDateFormats(t *testing.T) {
	for _, c := range []struct {
		in              string
		y, mo, d, h, mi int
	}{
		{"05 May 2024 10:00 +0200", 2024, 5, 5, 8, 0},
		{"31 Dec 2023 22:30 -0330", 2024, 1, 1, 2, 0},
		{"01 Feb 2024 00:15 +0000", 2024, 2, 1, 0, 15},
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

func TestDateRejects(t *testing.T) {
	for _, in := range []string{"", "soon", "05 May 2024 10:00"} {
		if _, err := Date(in); err == nil {
			t.Errorf("Date(%q) gave no error", in)
		}
	}
}
