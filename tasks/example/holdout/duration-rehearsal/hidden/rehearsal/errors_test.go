package rehearsal

import "testing"

func TestRuntimeErrors(t *testing.T) {
	for _, in := range []string{"h", "12", "3x"} {
		if _, err := Runtime(in); err == nil {
			t.Errorf("Runtime(%q) gave no error", in)
		}
	}
}
