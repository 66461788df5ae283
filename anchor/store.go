package anchor

import (
	"archive/tar"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
)

// walkFiles lists the regular files under dir, sorted, skipping dot-entries.
// A symlink or special file is an error: snapshots and tasks hold plain files.
func walkFiles(dir string) ([]string, error) {
	var files []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if p != dir && strings.HasPrefix(d.Name(), ".") {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		if d.IsDir() {
			return nil
		}
		if !d.Type().IsRegular() {
			return fmt.Errorf("%s is not a regular file; snapshots and tasks hold plain files only", p)
		}
		rel, _ := filepath.Rel(dir, p)
		files = append(files, filepath.ToSlash(rel))
		return nil
	})
	sort.Strings(files)
	return files, err
}

// Snapshot stores dir as a deterministic tar (sorted paths, zero mtimes,
// fixed modes, no owners) and returns its sha256, the harness hash.
func (a *Anchor) Snapshot(dir string) (string, error) {
	files, err := walkFiles(dir)
	if err != nil {
		return "", fmt.Errorf("snapshot %s: %w", dir, err)
	}
	if len(files) == 0 {
		return "", fmt.Errorf("snapshot %s: no files; point it at the harness folder", dir)
	}
	var buf bytes.Buffer
	tw := tar.NewWriter(&buf)
	for _, f := range files {
		b, err := os.ReadFile(filepath.Join(dir, f))
		if err != nil {
			return "", fmt.Errorf("snapshot: %w", err)
		}
		hdr := &tar.Header{Name: f, Mode: 0o644, Size: int64(len(b)), Typeflag: tar.TypeReg, Format: tar.FormatPAX}
		if err := tw.WriteHeader(hdr); err != nil {
			return "", err
		}
		tw.Write(b)
	}
	if err := tw.Close(); err != nil {
		return "", err
	}
	sum := sha256.Sum256(buf.Bytes())
	hash := hex.EncodeToString(sum[:])
	if err := writeAtomic(a.path("snapshots", hash+".tar"), buf.Bytes()); err != nil {
		return "", fmt.Errorf("store snapshot: %w", err)
	}
	return hash, nil
}

func writeAtomic(path string, b []byte) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".tmp-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(b); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}

var hexHash = regexp.MustCompile(`^[0-9a-f]{64}$`)

// resolveHarness turns a hash or a directory into a stored snapshot's hash.
func (a *Anchor) resolveHarness(arg string) (string, error) {
	if st, err := os.Stat(arg); err == nil && st.IsDir() {
		return a.Snapshot(arg)
	}
	if arg == "head" {
		h, err := a.head()
		return h.Hash, err
	}
	if !hexHash.MatchString(arg) {
		return "", fmt.Errorf("--harness %q is neither a directory nor a snapshot hash; pass the harness folder or a hash from anchor log --json", arg)
	}
	if _, err := os.Stat(a.path("snapshots", arg+".tar")); err != nil {
		return "", fmt.Errorf("no snapshot %s in %s; run anchor snapshot DIR first", arg, a.Home)
	}
	return arg, nil
}

// readSnapshot returns the files of a stored snapshot.
func (a *Anchor) readSnapshot(hash string) (map[string][]byte, error) {
	f, err := os.Open(a.path("snapshots", hash+".tar"))
	if err != nil {
		return nil, fmt.Errorf("open snapshot: %w", err)
	}
	defer f.Close()
	files := map[string][]byte{}
	tr := tar.NewReader(f)
	for {
		hdr, err := tr.Next()
		if err == io.EOF {
			return files, nil
		}
		if err != nil {
			return nil, fmt.Errorf("read snapshot %s: %w", hash, err)
		}
		name := filepath.Clean(hdr.Name)
		if hdr.Typeflag != tar.TypeReg || filepath.IsAbs(name) || strings.HasPrefix(name, "..") {
			return nil, fmt.Errorf("snapshot %s holds a bad entry %q", hash, hdr.Name)
		}
		if files[name], err = io.ReadAll(tr); err != nil {
			return nil, err
		}
	}
}

// extract writes snapshot hash into dst, which must not exist.
func (a *Anchor) extract(hash, dst string) error {
	files, err := a.readSnapshot(hash)
	if err != nil {
		return err
	}
	for name, b := range files {
		p := filepath.Join(dst, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(p, b, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// refreshWorkingCopy makes dir hold exactly snapshot hash, swapping in a
// fully extracted copy so that a failure never leaves half a harness.
func (a *Anchor) refreshWorkingCopy(hash, dir string) error {
	tmp := dir + ".anchor-new"
	os.RemoveAll(tmp)
	if err := a.extract(hash, tmp); err != nil {
		return fmt.Errorf("refresh %s: %w", dir, err)
	}
	old := dir + ".anchor-old"
	os.RemoveAll(old)
	if err := os.Rename(dir, old); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("refresh %s: %w", dir, err)
	}
	if err := os.Rename(tmp, dir); err != nil {
		return fmt.Errorf("refresh %s: %w", dir, err)
	}
	return os.RemoveAll(old)
}

var manifestList = regexp.MustCompile(`(?s)editable\s*=\s*\[(.*?)\]`)
var quoted = regexp.MustCompile(`"([^"\n]+)"`)

// manifest reads the editable list of harness/manifest.toml: the quoted
// strings inside editable = [ ... ], comments stripped. Nothing else.
func manifest(files map[string][]byte) []string {
	var lines []string
	for _, l := range strings.Split(string(files["manifest.toml"]), "\n") {
		if i := strings.Index(l, "#"); i >= 0 {
			l = l[:i]
		}
		lines = append(lines, l)
	}
	m := manifestList.FindStringSubmatch(strings.Join(lines, "\n"))
	if m == nil {
		return nil
	}
	var out []string
	for _, q := range quoted.FindAllStringSubmatch(m[1], -1) {
		out = append(out, q[1])
	}
	return out
}

// taskHash covers every file of a task directory, hidden and reference too.
func taskHash(dir string) (string, error) {
	files, err := walkFiles(dir)
	if err != nil {
		return "", err
	}
	h := sha256.New()
	for _, f := range files {
		b, err := os.ReadFile(filepath.Join(dir, f))
		if err != nil {
			return "", err
		}
		fmt.Fprintf(h, "%s\x00%d\x00", f, len(b))
		h.Write(b)
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// copyTree copies the regular files and directories of src into dst. It
// never follows symlinks: they are skipped. Special files are refused, and
// so is a tree larger than limit bytes.
func copyTree(src, dst string, limit int64) error {
	var total int64
	return filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		target := filepath.Join(dst, rel)
		switch {
		case d.IsDir():
			return os.MkdirAll(target, 0o755)
		case d.Type()&fs.ModeSymlink != 0:
			return nil
		case !d.Type().IsRegular():
			return fmt.Errorf("refusing special file %s", rel)
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		if total += info.Size(); total > limit {
			return fmt.Errorf("tree is larger than %d MB", limit>>20)
		}
		in, err := os.Open(p)
		if err != nil {
			return err
		}
		defer in.Close()
		os.Remove(target) // an overlay replaces; O_EXCL below never follows a link
		out, err := os.OpenFile(target, os.O_WRONLY|os.O_CREATE|os.O_EXCL, info.Mode().Perm()|0o600)
		if err != nil {
			return err
		}
		_, err = io.Copy(out, in)
		return errors.Join(err, out.Close())
	})
}
