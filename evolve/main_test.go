package evolve

import (
	"path/filepath"
	"testing"

	"ratchet/internal/testtree"
)

func TestMain(m *testing.M) { testtree.Main(m) }

// binDir returns the folder holding the built anchor and ratchet, built once
// for the package.
func binDir(t *testing.T) string {
	t.Helper()
	testtree.Command(t, "anchor")
	return filepath.Dir(testtree.Command(t, "ratchet"))
}
