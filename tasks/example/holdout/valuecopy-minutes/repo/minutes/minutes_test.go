package minutes

import "testing"

func TestMinutes(t *testing.T) {
	got := Minutes("Board meeting", []string{"budget", "hiring"})
	if want := "Board meeting\n1: budget\n2: hiring\n"; got != want {
		t.Fatalf("Minutes = %q, want %q", got, want)
	}
}
