package rehearsal

import "testing"

func TestRuntime(t *testing.T) {
	for in, want := range map[string]int{"45m": 45, "1h": 60, "1h30m": 90, "2h5m": 125} {
		got, err := Runtime(in)
		if err != nil || got != want {
			t.Errorf("Runtime(%q) = %d, %v; want %d", in, got, err, want)
		}
	}
}
