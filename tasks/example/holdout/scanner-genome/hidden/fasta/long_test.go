package fasta

import (
	"errors"
	"io"
	"strings"
	"testing"
)

func TestLinesWithMotifLongLines(t *testing.T) {
	long := strings.Repeat("x", 250000) + " " + "GATTACA"
	in := ">seq1 GATTACA" + "\n" + long + "\n" + "ACGTACGT" + "\n" + long + long + "\n" + "TTGATTACAGG"
	if n, err := LinesWithMotif(strings.NewReader(in), "GATTACA"); err != nil || n != 4 {
		t.Fatalf("LinesWithMotif = %d, %v; want 4, nil", n, err)
	}
}

func TestLinesWithMotifReadError(t *testing.T) {
	boom := errors.New("disk unplugged")
	r := io.MultiReader(strings.NewReader(">seq1 GATTACA"+"\n"), failing{boom})
	if _, err := LinesWithMotif(r, "GATTACA"); !errors.Is(err, boom) {
		t.Fatalf("err = %v, want the read error", err)
	}
}

type failing struct{ err error }

func (f failing) Read([]byte) (int, error) { return 0, f.err }
