package ndjson

import (
	"errors"
	"io"
	"strings"
	"testing"
)

func TestMatchingLongLines(t *testing.T) {
	long := strings.Repeat("x", 150000) + " " + "\"status\":\"failed\""
	in := "{\"id\":1,\"status\":\"failed\"}" + "\n" + long + "\n" + "{\"id\":2,\"status\":\"ok\"}" + "\n" + long + long + "\n" + "{\"id\":3,\"status\":\"failed\"}"
	if n, err := Matching(strings.NewReader(in), "\"status\":\"failed\""); err != nil || n != 4 {
		t.Fatalf("Matching = %d, %v; want 4, nil", n, err)
	}
}

func TestMatchingReadError(t *testing.T) {
	boom := errors.New("disk unplugged")
	r := io.MultiReader(strings.NewReader("{\"id\":1,\"status\":\"failed\"}"+"\n"), failing{boom})
	if _, err := Matching(r, "\"status\":\"failed\""); !errors.Is(err, boom) {
		t.Fatalf("err = %v, want the read error", err)
	}
}

type failing struct{ err error }

func (f failing) Read([]byte) (int, error) { return 0, f.err }
