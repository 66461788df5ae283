package money

import (
	"fmt"
	"testing"
)

func TestEntry(t *testing.T) {
	if got := Entry("coffee", Money{1999, "EUR"}); got != "coffee: 19.99 EUR" {
		t.Fatalf("Entry = %q", got)
	}
}

func TestPrintSlice(t *testing.T) {
	xs := []Money{{1999, "EUR"}, {5, "USD"}}
	if got := fmt.Sprint(xs); got != "[19.99 EUR 0.05 USD]" {
		t.Fatalf("fmt.Sprint = %q", got)
	}
}
