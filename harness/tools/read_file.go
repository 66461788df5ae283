// Package tools holds the four tools the agent can call. Each file is part of
// the editable surface: the evolver may rewrite a tool's description, its
// arguments or its behaviour, but the registry that loads them is immutable.
package tools

import (
	"fmt"
	"os"
	"strings"

	"ratchet/harness/core"
)

// ReadFile returns the read_file tool.
func ReadFile() core.Tool {
	return core.Tool{
		Spec: core.Spec{
			Name: "read_file",
			Description: "Read a text file of the task. The path is relative to the task root. " +
				"For a long file, give start_line and end_line (1-based, inclusive) to read part of it.",
			Parameters: []byte(`{"type":"object","properties":{` +
				`"path":{"type":"string","description":"file path relative to the task root"},` +
				`"start_line":{"type":"integer","description":"first line to show (1-based); default 1"},` +
				`"end_line":{"type":"integer","description":"last line to show (inclusive); default the last"}},` +
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
			_, hasStart := args["start_line"]
			_, hasEnd := args["end_line"]
			if !hasStart && !hasEnd {
				return string(b)
			}
			return lineRange(string(b), args)
		},
	}
}

// lineRange shows lines start_line to end_line of text, headed by which
// lines they are of how many, so the middle of a long file is reachable.
func lineRange(text string, args map[string]any) string {
	lines := strings.SplitAfter(text, "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	start, end := 1, len(lines)
	if v, ok := args["start_line"].(float64); ok {
		start = int(v)
	}
	if v, ok := args["end_line"].(float64); ok {
		end = min(int(v), len(lines))
	}
	if start < 1 || start > len(lines) || end < start {
		return fmt.Sprintf("error: the file has %d lines; ask for start_line 1 to %d and an end_line not before it",
			len(lines), len(lines))
	}
	return fmt.Sprintf("[lines %d-%d of %d]\n%s", start, end, len(lines), strings.Join(lines[start-1:end], ""))
}
