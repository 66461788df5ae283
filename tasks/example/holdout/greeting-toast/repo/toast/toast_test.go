package toast

import "testing"

func TestToast(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"ANNA", "Raise your glasses to ANNA!"},
	} {
		if got := Toast(c.in); got != c.want {
			t.Errorf("Toast(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}
