package agenda

import (
	"strings"
	"testing"
)

func TestRenderNoItems(t *testing.T) {
	if got := Render("Weekly sync", nil); got != "Weekly sync\n" {
		t.Fatalf("Render with no items = %q", got)
	}
}

func TestRenderManyItems(t *testing.T) {
	items := make([]string, 120)
	for i := range items {
		items[i] = "status"
	}
	got := Render("Weekly sync", items)
	if lines := strings.Count(got, "\n"); lines != 121 || !strings.Contains(got, "120") {
		t.Fatalf("Render with 120 items gave %d lines", lines)
	}
}
