package main

import (
	"testing"

	"ratchet/internal/testtree"
)

func TestMain(m *testing.M) { testtree.Main(m) }

// builtBinaries returns ratchet and anchor as a user would have them, built
// once for the package.
func builtBinaries(t *testing.T) (ratchet, anchorBin string) {
	t.Helper()
	if testing.Short() {
		t.Skip("builds the ratchet and anchor binaries: slow; run without -short")
	}
	return testtree.Command(t, "ratchet"), testtree.Command(t, "anchor")
}
