package access

import (
	"errors"
	"io"
	"strings"
	"testing"
)

func TestCountHitsLongLines(t *testing.T) {
	long := strings.Repeat("x", 300000) + " " + "/checkout"
	in := "GET /checkout 200" + "\n" + long + "\n" + "GET /cart 200" + "\n" + long + long + "\n" + "POST /checkout 302"
	if n, err := CountHits(strings.NewReader(in), "/checkout"); err != nil || n != 4 {
		t.Fatalf("CountHits = %d, %v; want 4, nil", n, err)
	}
}

func TestCountHitsReadError(t *testing.T) {
	boom := errors.New("disk unplugged")
	r := io.MultiReader(strings.NewReader("GET /checkout 200"+"\n"), failing{boom})
	if _, err := CountHits(r, "/checkout"); !errors.Is(err, boom) {
		t.Fatalf("err = %v, want the read error", err)
	}
}

type failing struct{ err error }

func (f failing) Read([]byte) (int, error) { return 0, f.err }
