package laptime

import "testing"

func TestSecondsErrors(t *testing.T) {
	for _, in := range []string{"m", "90", "1h"} {
		if _, err := Seconds(in); err == nil {
			t.Errorf("Seconds(%q) gave no error", in)
		}
	}
}
