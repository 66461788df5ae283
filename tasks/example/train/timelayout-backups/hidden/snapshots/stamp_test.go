package snapshots

import "testing"

func TestTaken(t *testing.T) {
	for _, c := range []struct {
		in              string
		y, mo, d, h, mi int
	}{
		{"2024/04/01 09:15:00", 2024, 4, 1, 9, 15},
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
