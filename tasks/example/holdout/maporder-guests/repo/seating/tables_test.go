package seating

import "testing"

func TestTables(t *testing.T) {
	if got := Tables(map[string]int{"Aspen": 4}); got != "Aspen: 4\n" {
		t.Fatalf("Tables = %q", got)
	}
	if got := Tables(nil); got != "" {
		t.Fatalf("Tables(nil) = %q", got)
	}
}
