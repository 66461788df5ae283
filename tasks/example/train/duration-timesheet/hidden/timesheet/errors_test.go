package timesheet

import "testing"

func TestMinutesErrors(t *testing.T) {
	for _, in := range []string{"h", "12", "3x"} {
		if _, err := Minutes(in); err == nil {
			t.Errorf("Minutes(%q) gave no error", in)
		}
	}
}
