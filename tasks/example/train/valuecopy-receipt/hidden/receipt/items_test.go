package receipt

import (
	"strings"
	"testing"
)

func TestReceiptNoItems(t *testing.T) {
	if got := Receipt("Corner Shop", nil); got != "Corner Shop\n" {
		t.Fatalf("Receipt with no items = %q", got)
	}
}

func TestReceiptManyItems(t *testing.T) {
	items := make([]string, 120)
	for i := range items {
		items[i] = "milk"
	}
	got := Receipt("Corner Shop", items)
	if lines := strings.Count(got, "\n"); lines != 121 || !strings.Contains(got, "120") {
		t.Fatalf("Receipt with 120 items gave %d lines", lines)
	}
}
