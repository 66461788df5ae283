package money

import "testing"

func TestString(t *testing.T) {
	x := Money{1999, "EUR"}
	if got := x.String(); got != "19.99 EUR" {
		t.Fatalf("String = %q, want %q", got, "19.99 EUR")
	}
}
