package visits

import "testing"

func TestSlotFormats(t *testing.T) {
	for _, c := range []struct {
		in              string
		y, mo, d, h, mi int
	}{
		{"03/15/2024 5:30 PM", 2024, 3, 15, 17, 30},
		{"12/05/2023 12:45 AM", 2023, 12, 5, 0, 45},
		{"02/10/2025 12:00 PM", 2025, 2, 10, 12, 0},
	} {
		tm, err := Slot(c.in)
		if err != nil {
			t.Errorf("Slot(%q): %v", c.in, err)
			continue
		}
		tm = tm.UTC()
		if tm.Year() != c.y || int(tm.Month()) != c.mo || tm.Day() != c.d || tm.Hour() != c.h || tm.Minute() != c.mi {
			t.Errorf("Slot(%q) = %v", c.in, tm)
		}
	}
}

func TestSlotRejects(t *testing.T) {
	for _, in := range []string{"", "soon", "13/01/2024 1:00 PM"} {
		if _, err := Slot(in); err == nil {
			t.Errorf("Slot(%q) gave no error", in)
		}
	}
}
