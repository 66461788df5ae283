package core

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// Resolve maps a model-supplied path onto the task root. It refuses absolute
// paths, paths that climb out with "..", and paths whose existing part leads
// outside the root through a symlink. The error text is meant for the model.
func Resolve(root, p string) (string, error) {
	if p == "" {
		p = "."
	}
	if filepath.IsAbs(p) {
		return "", errors.New("absolute paths are not allowed; use a path relative to the task root, like \"main.go\" or \"pkg/util.go\"")
	}
	clean := filepath.Clean(p)
	if clean == ".." || strings.HasPrefix(clean, ".."+string(filepath.Separator)) {
		return "", errors.New("path leaves the task root; use a path inside it")
	}
	realRoot, err := filepath.EvalSymlinks(root)
	if err != nil {
		return "", err
	}
	real, err := realPath(filepath.Join(realRoot, clean), 0)
	if err != nil {
		return "", errors.New("path cannot be resolved: " + err.Error())
	}
	if real != realRoot && !strings.HasPrefix(real, realRoot+string(filepath.Separator)) {
		return "", errors.New("path leads outside the task root through a symlink; use a path inside it")
	}
	return real, nil
}

// realPath resolves every symlink of p, including a dangling last one; the
// part that does not exist yet is kept as it is.
func realPath(p string, hops int) (string, error) {
	if hops > 40 {
		return "", errors.New("too many symlinks")
	}
	existing, rest := p, ""
	for {
		if _, err := os.Lstat(existing); err == nil || !errors.Is(err, fs.ErrNotExist) {
			break
		}
		rest = filepath.Join(filepath.Base(existing), rest)
		existing = filepath.Dir(existing)
	}
	real, err := filepath.EvalSymlinks(existing)
	if err != nil {
		target, lerr := os.Readlink(existing)
		if lerr != nil {
			return "", err
		}
		if !filepath.IsAbs(target) {
			target = filepath.Join(filepath.Dir(existing), target)
		}
		return realPath(filepath.Join(target, rest), hops+1)
	}
	return filepath.Join(real, rest), nil
}
