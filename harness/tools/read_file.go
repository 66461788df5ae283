// Package tools holds the four tools the agent can call. Each file is part of
// the editable surface: the evolver may rewrite a tool's description, its
// arguments or its behaviour, but the registry that loads them is immutable.
package tools

import (
	"os"

	"ratchet/harness/core"
)

// ReadFile returns the read_file tool.
func ReadFile() core.Tool {
	return core.Tool{
		Spec: core.Spec{
			Name:        "read_file",
			Description: "Read a text file of the task. The path is relative to the task root.",
			Parameters: []byte(`{"type":"object","properties":{` +
				`"path":{"type":"string","description":"file path relative to the task root"}},` +
				`"required":["path"],"additionalProperties":false}`),
		},
		Run: func(args map[string]any, ctx *core.Context) string {
			p, err := core.Resolve(ctx.Root, args["path"].(string))
			if err != nil {
				return "error: " + err.Error()
			}
			st, err := os.Stat(p)
			if err != nil {
				return "error: " + err.Error() + "; use list_dir to see which files exist"
			}
			if st.IsDir() {
				return "error: " + args["path"].(string) + " is a directory; use list_dir"
			}
			b, err := os.ReadFile(p)
			if err != nil {
				return "error: " + err.Error()
			}
			return string(b)
		},
	}
}
