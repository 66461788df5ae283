package harnesses

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"ratchet/anchor"
	"ratchet/internal/ledgerdb"
)

// Ledger says which ledger's head the doors run, and who named it: the
// --ledger flag, else ANCHOR_HOME, else RATCHET_LEDGER, else a
// `ledger = PATH` line in the user's config file (~/.config/ratchet/config).
// It returns "" when none names one. A ledger is an anchor home (the folder
// holding ledger.db); a path to its ledger.db is taken as its folder.
// A folder that merely sits in the working directory is never picked up: a
// project someone else wrote must not choose the code that runs on it.
func Ledger(flag string) (path, from string, err error) {
	switch {
	case flag != "":
		path, from = flag, "--ledger"
	case os.Getenv("ANCHOR_HOME") != "":
		path, from = os.Getenv("ANCHOR_HOME"), "ANCHOR_HOME"
	case os.Getenv("RATCHET_LEDGER") != "":
		path, from = os.Getenv("RATCHET_LEDGER"), "RATCHET_LEDGER"
	default:
		file := ConfigFile()
		if path, err = readConfig(file); err != nil || path == "" {
			return "", "", err
		}
		from = file
	}
	path, err = expand(path)
	if err != nil {
		return "", "", fmt.Errorf("the ledger named by %s: %w", from, err)
	}
	return path, from, nil
}

// ConfigFile is the user's ratchet config file:
// $XDG_CONFIG_HOME/ratchet/config, by default ~/.config/ratchet/config.
func ConfigFile() string {
	dir, err := os.UserConfigDir()
	if err != nil {
		return ""
	}
	return filepath.Join(dir, "ratchet", "config")
}

// readConfig returns the ledger setting of the config file, "" when the file
// or the setting is absent. Lines are `key = value`; # starts a comment.
func readConfig(file string) (string, error) {
	b, err := os.ReadFile(file)
	if errors.Is(err, os.ErrNotExist) || file == "" {
		return "", nil
	}
	if err != nil {
		return "", fmt.Errorf("read %s: %w", file, err)
	}
	ledger := ""
	sc := bufio.NewScanner(bytes.NewReader(b))
	for n := 1; sc.Scan(); n++ {
		line, _, _ := strings.Cut(sc.Text(), "#")
		line = strings.TrimSpace(line)
		if line == "" {
			continue
		}
		key, value, ok := strings.Cut(line, "=")
		key, value = strings.TrimSpace(key), strings.Trim(strings.TrimSpace(value), `"'`)
		switch {
		case !ok:
			return "", fmt.Errorf("%s line %d: %q is not key = value; write ledger = PATH", file, n, line)
		case key != "ledger":
			return "", fmt.Errorf("%s line %d: unknown setting %q; the only setting is ledger = PATH", file, n, key)
		case value == "":
			return "", fmt.Errorf("%s line %d: ledger has no path; write ledger = PATH", file, n)
		}
		if err := configPath(value); err != nil {
			return "", fmt.Errorf("%s line %d: %v", file, n, err)
		}
		ledger = value
	}
	return ledger, nil
}

// configPath checks a config file's ledger path: absolute or ~/, never
// relative, since a relative path would follow the working folder (the
// project the doors work on) rather than the user who wrote the file.
func configPath(value string) error {
	if strings.Contains(value, "$") {
		return fmt.Errorf("ledger = %s: variables such as $HOME are not expanded; write an absolute path or one starting with ~/", value)
	}
	if !filepath.IsAbs(value) && !strings.HasPrefix(value, "~/") && value != "~" {
		return fmt.Errorf("ledger = %s must be absolute or start with ~/ (a relative path would follow the folder ratchet runs in)", value)
	}
	return nil
}

// expand makes a ledger path absolute: ~/ is the home folder, and a path to
// ledger.db means its folder.
func expand(path string) (string, error) {
	if rest, ok := strings.CutPrefix(path, "~/"); ok || path == "~" {
		home, err := os.UserHomeDir()
		if err != nil {
			return "", err
		}
		path = filepath.Join(home, rest)
	}
	if filepath.Base(path) == "ledger.db" {
		if st, err := os.Stat(path); err == nil && st.Mode().IsRegular() {
			path = filepath.Dir(path)
		}
	}
	return filepath.Abs(path)
}

var hashPattern = regexp.MustCompile(`^[0-9a-f]{64}$`)

// HeadOf returns the head snapshot of the ledger in anchor home ledger,
// verified against the hash the ledger records for it.
func HeadOf(ledger string) (*Harness, error) {
	rows, err := query(ledger, `SELECT g.gen AS gen, COALESCE(g.harness_hash, '') AS hash
		FROM head h JOIN generations g ON g.gen = h.gen`)
	if err != nil {
		return nil, err
	}
	if len(rows) == 0 {
		return nil, fmt.Errorf("the ledger %s has no head yet: run anchor init there, or name another ledger", ledger)
	}
	gen, hash := int(rows[0]["gen"].(int64)), rows[0]["hash"].(string)
	files, err := Snapshot(ledger, hash)
	if err != nil {
		return nil, fmt.Errorf("head generation %d: %w", gen, err)
	}
	return &Harness{Kind: Head, Path: ledger, Gen: gen, Hash: hash, Files: files}, nil
}

// Snapshot returns the files of snapshot hash in anchor home ledger, and
// refuses, with the reason, a snapshot that is missing, holds something other
// than regular files, or no longer hashes to its name.
func Snapshot(ledger, hash string) (map[string][]byte, error) {
	if !hashPattern.MatchString(hash) {
		return nil, fmt.Errorf("the ledger %s records a malformed harness hash %q; refusing it", ledger, hash)
	}
	dir := filepath.Join(ledger, "snapshots", hash)
	files, err := anchor.ReadTree(dir, true)
	if err != nil {
		return nil, fmt.Errorf("refusing snapshot %s: it cannot be read (%v); pass --harness DIR to run a folder you trust", dir, err)
	}
	if got := anchor.HashOf(files); got != hash {
		return nil, fmt.Errorf("refusing snapshot %s: it was changed after the anchor accepted it (its files hash to %s…, the ledger says %s…); pass --harness DIR to run a folder you trust", dir, short(got), short(hash))
	}
	return files, nil
}

// Export writes generation gen's snapshot (the head when gen < 0) of anchor
// home ledger into dir, a new or empty folder, and returns its hash.
func Export(ledger string, gen int, dir string) (string, error) {
	where, args := `gen = ?`, []any{gen}
	if gen < 0 {
		where, args = `gen = (SELECT gen FROM head)`, nil
	}
	rows, err := query(ledger, `SELECT gen, COALESCE(harness_hash, '') AS hash, COALESCE(decision, '') AS decision
		FROM generations WHERE `+where, args...)
	switch {
	case err != nil:
		return "", err
	case len(rows) == 0 && gen < 0:
		return "", fmt.Errorf("the ledger %s has no head yet: run anchor init there", ledger)
	case len(rows) == 0:
		return "", fmt.Errorf("the ledger %s has no generation %d; ratchet log lists them", ledger, gen)
	case rows[0]["hash"] == "":
		return "", fmt.Errorf("generation %v was %s before a snapshot was made; pick another from ratchet log", rows[0]["gen"], rows[0]["decision"])
	}
	hash := rows[0]["hash"].(string)
	files, err := Snapshot(ledger, hash)
	if err != nil {
		return "", err
	}
	if entries, err := os.ReadDir(dir); err == nil && len(entries) > 0 {
		return "", fmt.Errorf("%s is not empty; export into a new folder", dir)
	} else if err == nil {
		os.Remove(dir) // empty: the export takes its place
	}
	tmp := filepath.Join(filepath.Dir(filepath.Clean(dir)), ".export-"+short(hash)+"-"+filepath.Base(dir))
	os.RemoveAll(tmp)
	defer os.RemoveAll(tmp)
	if err := anchor.WriteTree(tmp, files); err != nil {
		return "", fmt.Errorf("write %s: %w", dir, err)
	}
	if err := os.Rename(tmp, dir); err != nil {
		return "", fmt.Errorf("export to %s: %w", dir, err)
	}
	return hash, nil
}

// query reads the ledger in anchor home ledger.
func query(ledger, q string, args ...any) ([]map[string]any, error) {
	if _, err := os.Stat(filepath.Join(ledger, "ledger.db")); err != nil {
		return nil, fmt.Errorf("%w at %s: run anchor init there, or name another with --ledger, ANCHOR_HOME, RATCHET_LEDGER or %s", ledgerdb.ErrNoLedger, ledger, ConfigFile())
	}
	rows, err := ledgerdb.Query(context.Background(), filepath.Join(ledger, "ledger.db"), q, args...)
	if err != nil {
		return nil, fmt.Errorf("read the ledger in %s: %w", ledger, err)
	}
	return rows, nil
}
