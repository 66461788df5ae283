package webhooks

import "testing"

func TestReceived(t *testing.T) {
	for _, c := range []struct {
		in              string
		y, mo, d, h, mi int
	}{
		{"2024-06-01T12:00:00Z", 2024, 6, 1, 12, 0},
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
