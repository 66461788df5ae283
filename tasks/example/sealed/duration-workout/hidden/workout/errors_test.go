package workout

import "testing"

func TestLengthErrors(t *testing.T) {
	for _, in := range []string{"h", "12", "3x"} {
		if _, err := Length(in); err == nil {
			t.Errorf("Length(%q) gave no error", in)
		}
	}
}
