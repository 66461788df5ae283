package tools

import (
	"fmt"
	"os"
	"path/filepath"

	"ratchet/harness/core"
)

// WriteFile returns the write_file tool: it replaces a file's whole content.
func WriteFile() core.Tool {
	return core.Tool{
		Spec: core.Spec{
			Name:        "write_file",
			Description: "Write the complete new content of a file, replacing it. Give the whole file, not a fragment.",
			Parameters: []byte(`{"type":"object","properties":{` +
				`"path":{"type":"string","description":"file path relative to the task root"},` +
				`"content":{"type":"string","description":"the complete file content"}},` +
				`"required":["path","content"],"additionalProperties":false}`),
		},
		Run: func(args map[string]any, ctx *core.Context) string {
			rel := args["path"].(string)
			p, err := core.Resolve(ctx.Root, rel)
			if err != nil {
				return "error: " + err.Error()
			}
			if st, err := os.Lstat(p); err == nil && !st.Mode().IsRegular() {
				return "error: " + rel + " is not a regular file"
			}
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				return "error: " + err.Error()
			}
			content := args["content"].(string)
			if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
				return "error: " + err.Error()
			}
			return fmt.Sprintf("wrote %d bytes to %s", len(content), rel)
		},
	}
}
