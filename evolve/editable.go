package evolve

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/parser"
	"go/printer"
	"go/token"
	"os"
	"path/filepath"
	"strings"

	"ratchet/anchor"
)

// editableGuide is EDITABLE.md of the evolve workspace: every file the
// manifest lets the evolver change, and the values it sets (its constants
// and variables as written, the tools' names, descriptions and
// parameters), so a proposal can name the value it changes and why.
func editableGuide(harness string) ([]byte, error) {
	manifest, err := os.ReadFile(filepath.Join(harness, "manifest.toml"))
	if err != nil {
		return nil, err
	}
	editable := anchor.Manifest(map[string][]byte{"manifest.toml": manifest}) // as the anchor reads it
	var b bytes.Buffer
	b.WriteString("# The editable files and the values they set\n\n" +
		"You may change exactly one of these files per candidate (harness/manifest.toml). Any honest value\n" +
		"is allowed: the harness's own tests check only what every honest value keeps (a cap stops the run\n" +
		"and says why, a long result is cut once and says so, a client error is not retried).\n")
	for _, path := range editable {
		src, err := os.ReadFile(filepath.Join(harness, path))
		if err != nil {
			return nil, fmt.Errorf("editable file %s: %w", path, err)
		}
		fmt.Fprintf(&b, "\n## harness/%s\n\n", path)
		if !strings.HasSuffix(path, ".go") {
			fmt.Fprintf(&b, "The text itself (%d lines, %d characters): read it whole with read_file.\n",
				strings.Count(string(src), "\n"), len(src))
			continue
		}
		values, err := goValues(path, src)
		if err != nil {
			return nil, err
		}
		if len(values) == 0 {
			b.WriteString("No constants or variables: its behaviour is its code; read it.\n")
		}
		for _, v := range values {
			fmt.Fprintf(&b, "- %s\n", v)
		}
	}
	return b.Bytes(), nil
}

// goValues lists a Go file's top-level constants and variables as written,
// its functions, and the string fields of the composite literals it
// returns (a tool's Name, Description, Parameters).
func goValues(path string, src []byte) ([]string, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, path, src, 0)
	if err != nil {
		return nil, fmt.Errorf("editable file %s: %w", path, err)
	}
	text := func(n ast.Node) string {
		var b bytes.Buffer
		printer.Fprint(&b, fset, n)
		return strings.Join(strings.Fields(b.String()), " ")
	}
	var out []string
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.GenDecl:
			if d.Tok != token.CONST && d.Tok != token.VAR {
				continue
			}
			for _, s := range d.Specs {
				if vs, ok := s.(*ast.ValueSpec); ok {
					out = append(out, fmt.Sprintf("%s %s", d.Tok, clip(text(vs), 300)))
				}
			}
		case *ast.FuncDecl:
			out = append(out, fmt.Sprintf("func %s", d.Name.Name))
			ast.Inspect(d, func(n ast.Node) bool {
				kv, ok := n.(*ast.KeyValueExpr)
				if !ok {
					return true
				}
				if k, ok := kv.Key.(*ast.Ident); ok && (k.Name == "Name" || k.Name == "Description" || k.Name == "Parameters") {
					out = append(out, fmt.Sprintf("  %s: %s", k.Name, clip(text(kv.Value), 400)))
				}
				return true
			})
		}
	}
	return out, nil
}
