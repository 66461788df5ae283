package access

import (
	"strings"
	"testing"
)

func TestCountHits(t *testing.T) {
	in := "GET /checkout 200" + "\n" + "GET /cart 200" + "\n" + "POST /checkout 302" + "\n"
	if n, err := CountHits(strings.NewReader(in), "/checkout"); err != nil || n != 2 {
		t.Fatalf("CountHits = %d, %v; want 2", n, err)
	}
}
