package tools

import (
	"io/fs"
	"path/filepath"
	"strings"

	"ratchet/harness/core"
)

const listLimit = 500

// ListDir returns the list_dir tool: a recursive listing of a directory.
func ListDir() core.Tool {
	return core.Tool{
		Spec: core.Spec{
			Name:        "list_dir",
			Description: "List the files under a directory of the task, recursively. Directories end with /.",
			Parameters: []byte(`{"type":"object","properties":{` +
				`"path":{"type":"string","description":"directory relative to the task root; default ."}},` +
				`"additionalProperties":false}`),
		},
		Run: func(args map[string]any, ctx *core.Context) string {
			rel, _ := args["path"].(string)
			dir, err := core.Resolve(ctx.Root, rel)
			if err != nil {
				return "error: " + err.Error()
			}
			var b strings.Builder
			n := 0
			err = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
				if err != nil {
					return err
				}
				if p == dir {
					return nil
				}
				if d.IsDir() && strings.HasPrefix(d.Name(), ".") {
					return filepath.SkipDir
				}
				if n++; n > listLimit {
					b.WriteString("... (listing stopped at 500 entries)\n")
					return fs.SkipAll
				}
				r, _ := filepath.Rel(dir, p)
				b.WriteString(filepath.ToSlash(r))
				if d.IsDir() {
					b.WriteString("/")
				}
				b.WriteString("\n")
				return nil
			})
			if err != nil {
				return "error: " + err.Error()
			}
			if b.Len() == 0 {
				return "(empty directory)"
			}
			return b.String()
		},
	}
}
