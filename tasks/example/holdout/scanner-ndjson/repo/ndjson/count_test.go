package ndjson

import (
	"strings"
	"testing"
)

func TestMatching(t *testing.T) {
	in := "{\"id\":1,\"status\":\"failed\"}" + "\n" + "{\"id\":2,\"status\":\"ok\"}" + "\n" + "{\"id\":3,\"status\":\"failed\"}" + "\n"
	if n, err := Matching(strings.NewReader(in), "\"status\":\"failed\""); err != nil || n != 2 {
		t.Fatalf("Matching = %d, %v; want 2", n, err)
	}
}
