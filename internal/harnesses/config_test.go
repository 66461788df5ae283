package harnesses

// The config file names the ledger the doors run: a test plays the attack a
// red team found on it, and its comment says the defence.

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Ledger promises that "a folder that merely sits in the working directory
// is never picked up", but a relative ledger path in the config file is made
// absolute against the working directory (expand: filepath.Abs). With
// `ledger = .anchor`, or the natural `ledger = $HOME/evolve/.anchor` (no
// variable is expanded, so it is relative too), `ratchet run` in a project
// someone else wrote runs that project's .anchor (or "$HOME/evolve/.anchor")
// head: a self-consistent ledger and snapshot the project ships, built and
// run on the host without --sandbox.
//
// The defence: in readConfig, refuse a path that is not absolute and does not start
// with ~/ ("ledger = PATH must be absolute or start with ~/"), naming $ when
// it appears; or resolve it against the config file's folder, never the
// working one.
func TestConfigLedgerIsNeverRelativeToTheProject(t *testing.T) {
	home, project := t.TempDir(), t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", "")
	t.Setenv("ANCHOR_HOME", "")
	t.Setenv("RATCHET_LEDGER", "")
	config := filepath.Join(home, ".config", "ratchet", "config")
	os.MkdirAll(filepath.Dir(config), 0o755)
	t.Chdir(project)
	for _, line := range []string{"ledger = .anchor\n", "ledger = $HOME/evolve/.anchor\n"} {
		os.WriteFile(config, []byte(line), 0o644)
		got, _, err := Ledger("")
		if err == nil && strings.HasPrefix(got, project) {
			t.Errorf("config %q: the doors would run the head of %s, inside the project they work on", strings.TrimSpace(line), got)
		}
	}
}
