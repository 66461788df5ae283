package mine

import (
	"bytes"
	"errors"
	"go/ast"
	"go/build"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"io"
	"io/fs"
	"path"
	"strings"
	"sync"
)

// typeChecker type-checks a mutated Go package on the host before a
// sandbox is spent on it: a mutant that leaves a variable unused or a
// value of the wrong type does not build, and go/types says so in
// milliseconds where a sandboxed go test takes seconds. Only packages
// that import nothing but the standard library are checked, and only
// those whose original code checks clean: no code of the project is
// compiled or run on the host (the standard library's export data comes
// from the toolchain), and a package the checker cannot read as the
// compiler does is left to the sandbox.
type typeChecker struct {
	files map[string][]byte
	mu    sync.Mutex // go/types importers are not safe for concurrent use
	imp   types.Importer
	clean map[string]bool // package folder → its original code checks clean
}

func newTypeChecker(files map[string][]byte) *typeChecker {
	return &typeChecker{files: files, imp: importer.Default(), clean: map[string]bool{}}
}

// fails says whether the package in folder dir of tree, which differs from
// the original only in file changed, does not type-check. It says false
// whenever it cannot tell.
func (c *typeChecker) fails(tree map[string][]byte, dir, changed string) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	clean, seen := c.clean[dir]
	if !seen {
		clean = c.check(c.files, dir) == nil
		c.clean[dir] = clean
	}
	if !clean || path.Dir(changed) != dir {
		return false
	}
	return c.check(tree, dir) != nil
}

// check type-checks the non-test Go files of folder dir that the host's
// build context selects (build constraints and file names), reading them
// from tree.
func (c *typeChecker) check(tree map[string][]byte, dir string) error {
	ctx := build.Default
	ctx.CgoEnabled = false
	ctx.OpenFile = func(p string) (io.ReadCloser, error) {
		b, ok := tree[strings.TrimPrefix(p, "/")]
		if !ok {
			return nil, fs.ErrNotExist
		}
		return io.NopCloser(bytes.NewReader(b)), nil
	}
	fset := token.NewFileSet()
	var syntax []*ast.File
	for name, src := range tree {
		if path.Dir(name) != dir || !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			continue
		}
		ok, err := ctx.MatchFile("/"+dir, path.Base(name))
		if err != nil {
			return err
		}
		if !ok {
			continue
		}
		f, err := parser.ParseFile(fset, name, src, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		for _, im := range f.Imports {
			if p := strings.Trim(im.Path.Value, `"`); strings.Contains(strings.Split(p, "/")[0], ".") || p == "C" {
				return errNotStd // not the standard library: left to the sandbox
			}
		}
		syntax = append(syntax, f)
	}
	if len(syntax) == 0 {
		return errNotStd
	}
	conf := types.Config{Importer: c.imp, Error: func(error) {}}
	_, err := conf.Check(dir, fset, syntax, nil)
	return err
}

var errNotStd = errors.New("imports beyond the standard library")
