package anchor

import (
	"archive/tar"
	"bytes"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
)

// maxTree caps the bytes of a tree the anchor reads.
var maxTree = 1 << 30

// ReadTree reads the regular files under dir by slash-separated path. For
// snapshots and tasks (strict) a symlink or special file is an error and
// dot-entries are skipped. For an agent's tree, symlinks are skipped, never
// followed, and special files are refused.
func ReadTree(dir string, strict bool) (map[string][]byte, error) {
	files, size := map[string][]byte{}, 0
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if strict && p != dir && strings.HasPrefix(d.Name(), ".") {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		if d.IsDir() || (!strict && d.Type()&fs.ModeSymlink != 0) {
			return nil
		}
		if !d.Type().IsRegular() {
			return fmt.Errorf("refusing %s: not a regular file", p)
		}
		// an agent's tree is held in memory
		if size > maxTree || (!strict && (size > maxTree/16 || len(files) > 100000)) {
			return fmt.Errorf("refusing %s: %d files, %d bytes, more than the anchor reads", dir, len(files), size)
		}
		rel, _ := filepath.Rel(dir, p) // p is under dir: WalkDir joined it
		b, err := os.ReadFile(p)
		files[filepath.ToSlash(rel)] = b
		size += len(b)
		return err
	})
	return files, err
}

// copyTree copies src into dst, over what is there (see ReadTree).
func copyTree(src, dst string) error {
	files, err := ReadTree(src, false)
	if err != nil {
		return err
	}
	return WriteTree(dst, files)
}

// HashOf is the sha256 of the deterministic tar of files: sorted paths,
// zero mtimes, fixed modes, no owners. It names a snapshot or a task.
func HashOf(files map[string][]byte) string {
	h := sha256.New()
	tw := tar.NewWriter(h)
	for _, f := range slices.Sorted(maps.Keys(files)) {
		size := int64(len(files[f]))
		tw.WriteHeader(&tar.Header{Name: f, Mode: 0o644, Size: size, Typeflag: tar.TypeReg, Format: tar.FormatPAX})
		tw.Write(files[f]) // writes to a hash cannot fail
	}
	tw.Close() // nor can its footer
	return hex.EncodeToString(h.Sum(nil))
}

// WriteTree writes files under dst through an os.Root, so that neither a
// name (one that is not local is refused) nor a link already there leads
// out of it. A script (#!) is made executable. An existing file is
// replaced, never written through.
func WriteTree(dst string, files map[string][]byte) error {
	os.MkdirAll(dst, 0o755) // a failure shows as OpenRoot's
	root, err := os.OpenRoot(dst)
	if err != nil {
		return err
	}
	defer root.Close()
	for name, b := range files {
		if !filepath.IsLocal(name) {
			return fmt.Errorf("write %s: %q is not a name inside it", dst, name)
		}
		root.Remove(name)
		if err := root.MkdirAll(filepath.Dir(name), 0o755); err != nil {
			return err
		}
		mode := os.FileMode(0o644)
		if bytes.HasPrefix(b, []byte("#!")) {
			mode = 0o755
		}
		if err := root.WriteFile(name, b, mode); err != nil {
			return err
		}
	}
	return nil
}

// Snapshot stores the files of dir in snapshots/<hash>, hash being their
// sha256 (HashOf), and returns the hash.
func (a *Anchor) Snapshot(dir string) (string, error) {
	files, err := ReadTree(dir, true)
	if err == nil && len(files) == 0 {
		err = errors.New("it holds no file")
	}
	if err != nil {
		return "", fmt.Errorf("snapshot %s: %w; point it at the harness folder", dir, err)
	}
	hash := HashOf(files)
	if _, err := os.Stat(a.path("snapshots", hash)); err == nil {
		return hash, nil
	}
	tmp := a.path("tmp", "snap-"+rand.Text())
	defer os.RemoveAll(tmp)
	if err := WriteTree(tmp, files); err != nil {
		return "", fmt.Errorf("snapshot %s: %w", dir, err)
	}
	if err := os.Rename(tmp, a.path("snapshots", hash)); err != nil {
		return "", fmt.Errorf("snapshot %s: %w", dir, err)
	}
	return hash, nil
}

// resolveHarness turns a folder, a stored snapshot's hash or "head" into a
// stored snapshot's hash.
func (a *Anchor) resolveHarness(arg string) (string, error) {
	if st, err := os.Stat(arg); err == nil && st.IsDir() {
		return a.Snapshot(arg)
	}
	if arg == "head" || arg == "" {
		h, err := a.head()
		return h.Hash, err
	}
	_, err := os.Stat(a.path("snapshots", arg)) // a stat only: a path outside is refused next
	if !filepath.IsLocal(arg) || err != nil {
		return "", fmt.Errorf("--harness %q is neither a folder nor a stored snapshot hash; "+
			"pass the harness folder or a hash from ratchet log --json", arg)
	}
	return arg, nil
}

// readSnapshot returns the files of a stored snapshot, checked against its
// hash, so that a snapshot changed on disk is never used.
func (a *Anchor) readSnapshot(hash string) (map[string][]byte, error) {
	files, err := ReadTree(a.path("snapshots", hash), true)
	if err != nil {
		return nil, fmt.Errorf("snapshot %s is missing or unreadable (%v); snapshot the harness again", hash, err)
	}
	if HashOf(files) != hash {
		return nil, fmt.Errorf("snapshot %s no longer matches its hash; snapshot the harness again", hash)
	}
	return files, nil
}

// refreshWorkingCopy makes the harness working copy hold exactly snapshot
// hash. If it fails half way the ledger is still right, and a rollback to
// the head redoes it.
func (a *Anchor) refreshWorkingCopy(hash string) error {
	dir, err := a.meta("harness_dir")
	if err != nil || dir == "" {
		return err
	}
	files, err := a.readSnapshot(hash)
	if err == nil {
		err = os.RemoveAll(dir)
	}
	if err == nil {
		err = WriteTree(dir, files)
	}
	if err != nil {
		return fmt.Errorf("refresh %s: %w; the ledger is right: "+
			"run anchor rollback with the head generation to retry", dir, err)
	}
	return nil
}

var manifestList = regexp.MustCompile(`editable\s*=\s*\[([^\]]*)\]`)
var quoted = regexp.MustCompile(`"([^"\n]+)"`)
var comment = regexp.MustCompile(`#.*`)

// Manifest reads the editable list of harness/manifest.toml: the quoted
// strings inside editable = [ ... ], comments stripped. Nothing else. No
// list means nothing is editable.
func Manifest(files map[string][]byte) []string {
	m := manifestList.FindSubmatch(comment.ReplaceAll(files["manifest.toml"], nil))
	if m == nil {
		return nil
	}
	var out []string
	for _, q := range quoted.FindAllSubmatch(m[1], -1) {
		out = append(out, string(q[1]))
	}
	return out
}
