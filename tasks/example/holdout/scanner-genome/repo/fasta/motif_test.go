package fasta

import (
	"strings"
	"testing"
)

func TestLinesWithMotif(t *testing.T) {
	in := ">seq1 GATTACA" + "\n" + "ACGTACGT" + "\n" + "TTGATTACAGG" + "\n"
	if n, err := LinesWithMotif(strings.NewReader(in), "GATTACA"); err != nil || n != 2 {
		t.Fatalf("LinesWithMotif = %d, %v; want 2", n, err)
	}
}
