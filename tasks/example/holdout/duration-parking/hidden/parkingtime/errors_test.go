package parkingtime

import "testing"

func TestMinutesErrors(t *testing.T) {
	for _, in := range []string{"m", "7", "2d"} {
		if _, err := Minutes(in); err == nil {
			t.Errorf("Minutes(%q) gave no error", in)
		}
	}
}
