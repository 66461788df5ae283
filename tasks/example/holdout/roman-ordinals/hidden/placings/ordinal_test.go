package placings

import (
	"fmt"
	"testing"
)

// want is computed independently of Ordinal.
func want(n int) string {
	last2 := n % 100
	switch {
	case last2/10 == 1:
		return fmt.Sprint(n, "th")
	case n%10 == 1:
		return fmt.Sprint(n, "st")
	case n%10 == 2:
		return fmt.Sprint(n, "nd")
	case n%10 == 3:
		return fmt.Sprint(n, "rd")
	}
	return fmt.Sprint(n, "th")
}

func TestOrdinalEvery(t *testing.T) {
	for n := 1; n <= 10000; n++ {
		if got := Ordinal(n); got != want(n) {
			t.Errorf("Ordinal(%d) = %s, want %s", n, got, want(n))
		}
	}
}
