package census

import "testing"

func TestReport(t *testing.T) {
	if got := Report(map[string]int{"Northgate": 4}); got != "Northgate: 4\n" {
		t.Fatalf("Report = %q", got)
	}
	if got := Report(nil); got != "" {
		t.Fatalf("Report(nil) = %q", got)
	}
}
