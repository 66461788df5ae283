package snapshots

import "testing"

func TestTakenFormats(t *testing.T) {
	for _, c := range []struct {
		in              string
		y, mo, d, h, mi int
	}{
		{"2024/04/01 21:15:00", 2024, 4, 1, 21, 15},
		{"2024/04/02 13:00:00", 2024, 4, 2, 13, 0},
		{"2023/12/31 23:59:00", 2023, 12, 31, 23, 59},
	} {
		tm, err := Taken(c.in)
		if err != nil {
			t.Errorf("Taken(%q): %v", c.in, err)
			continue
		}
		tm = tm.UTC()
		if tm.Year() != c.y || int(tm.Month()) != c.mo || tm.Day() != c.d || tm.Hour() != c.h || tm.Minute() != c.mi {
			t.Errorf("Taken(%q) = %v", c.in, tm)
		}
	}
}

func TestTakenRejects(t *testing.T) {
	for _, in := range []string{"", "soon", "2024/04/01 24:10:00"} {
		if _, err := Taken(in); err == nil {
			t.Errorf("Taken(%q) gave no error", in)
		}
	}
}
