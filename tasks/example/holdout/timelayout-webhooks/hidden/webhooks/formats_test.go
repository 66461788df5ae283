package webhooks

import "testing"

func TestReceivedFormats(t *testing.T) {
	for _, c := range []struct {
		in              string
		y, mo, d, h, mi int
	}{
		{"2024-06-01T12:00:00+02:00", 2024, 6, 1, 10, 0},
		{"2024-06-01T23:30:00-05:00", 2024, 6, 2, 4, 30},
		{"2023-01-09T08:15:00Z", 2023, 1, 9, 8, 15},
	} {
		tm, err := Received(c.in)
		if err != nil {
			t.Errorf("Received(%q): %v", c.in, err)
			continue
		}
		tm = tm.UTC()
		if tm.Year() != c.y || int(tm.Month()) != c.mo || tm.Day() != c.d || tm.Hour() != c.h || tm.Minute() != c.mi {
			t.Errorf("Received(%q) = %v", c.in, tm)
		}
	}
}

func TestReceivedRejects(t *testing.T) {
	for _, in := range []string{"", "soon", "2024-06-01 12:00:00"} {
		if _, err := Received(in); err == nil {
			t.Errorf("Received(%q) gave no error", in)
		}
	}
}
