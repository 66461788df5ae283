package minutes

import (
	"strings"
	"testing"
)

func TestMinutesNoItems(t *testing.T) {
	if got := Minutes("Board meeting", nil); got != "Board meeting\n" {
		t.Fatalf("Minutes with no items = %q", got)
	}
}

func TestMinutesManyItems(t *testing.T) {
	items := make([]string, 120)
	for i := range items {
		items[i] = "budget"
	}
	got := Minutes("Board meeting", items)
	if lines := strings.Count(got, "\n"); lines != 121 || !strings.Contains(got, "120") {
		t.Fatalf("Minutes with 120 items gave %d lines", lines)
	}
}
