// Package editors is the drop-in editor kit: the MCP configuration
// that makes `ratchet mcp` appear in VS Code, Cursor, Claude Code and Zed,
// each in the file and shape that editor documents. It prints the
// configuration or merges it into a project's files, keeping every other
// setting, comment and blank line the user has there.
//
// It imports only the standard library.
package editors

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// Server is the MCP server every editor is told to start. The editor passes
// it "--root FOLDER" after Args, FOLDER being the project the editor has open,
// so that the server works on that project and nothing outside it.
type Server struct {
	Name    string   // key under the editor's servers object, e.g. "ratchet"
	Command string   // executable, e.g. "ratchet" or an absolute path
	Args    []string // e.g. ["mcp"]
	Project string   // the project folder, absolute, for editors that cannot name the open folder
	// Env is written into the entry's env: the model settings, so that an
	// editor started from the desktop, without the shell's MODEL_*, still
	// reaches the model. Never a credential.
	Env map[string]string
}

// Editor is one editor's project-level MCP configuration file.
type Editor struct {
	ID    string // short name for --editor
	Title string // the editor's name
	Path  string // the file, relative to the project folder
	Key   string // the top-level object that maps server names to servers
	// Folder is how the editor's configuration names the open project folder
	// (a variable the editor expands when it starts the server); empty when
	// it has no such variable and the absolute Server.Project is written.
	Folder string
	entry  func(cmd string, args []string, env map[string]string) any
}

// args returns the server's arguments as this editor runs it.
func (e Editor) args(s Server) []string {
	folder := cmp.Or(e.Folder, s.Project)
	return append(slices.Clone(s.Args), "--root", folder)
}

// The entry shapes, one per documented format. Field order is the order the
// editors' own examples use.
type (
	// vscode: https://code.visualstudio.com/docs/copilot/reference/mcp-configuration
	// ("type" is required for stdio servers).
	vscodeEntry struct {
		Type    string            `json:"type"`
		Command string            `json:"command"`
		Args    []string          `json:"args"`
		Env     map[string]string `json:"env,omitempty"`
	}
	// cursor: https://cursor.com/docs/mcp (command, args, env).
	cursorEntry struct {
		Command string            `json:"command"`
		Args    []string          `json:"args"`
		Env     map[string]string `json:"env"`
	}
	// claude: https://code.claude.com/docs/en/mcp, project scope (.mcp.json).
	claudeEntry struct {
		Type    string            `json:"type"`
		Command string            `json:"command"`
		Args    []string          `json:"args"`
		Env     map[string]string `json:"env"`
	}
	// zed: https://zed.dev/docs/ai/mcp, custom servers in settings.json.
	zedEntry struct {
		Source  string            `json:"source"`
		Command string            `json:"command"`
		Args    []string          `json:"args"`
		Env     map[string]string `json:"env"`
	}
)

// All lists the supported editors.
var All = []Editor{
	{ID: "vscode", Title: "VS Code", Path: filepath.Join(".vscode", "mcp.json"), Key: "servers",
		Folder: "${workspaceFolder}", // documented in the MCP configuration reference
		entry: func(cmd string, args []string, env map[string]string) any {
			return vscodeEntry{"stdio", cmd, args, env}
		}},
	{ID: "cursor", Title: "Cursor", Path: filepath.Join(".cursor", "mcp.json"), Key: "mcpServers",
		Folder: "${workspaceFolder}", // expanded in mcp.json like VS Code's
		entry: func(cmd string, args []string, env map[string]string) any {
			return cursorEntry{cmd, args, orEmpty(env)}
		}},
	{ID: "claude", Title: "Claude Code", Path: ".mcp.json", Key: "mcpServers",
		// .mcp.json expands ${VAR:-default}; Claude Code starts servers in the project.
		Folder: "${CLAUDE_PROJECT_DIR:-.}",
		entry: func(cmd string, args []string, env map[string]string) any {
			return claudeEntry{"stdio", cmd, args, orEmpty(env)}
		}},
	{ID: "zed", Title: "Zed", Path: filepath.Join(".zed", "settings.json"), Key: "context_servers",
		entry: func(cmd string, args []string, env map[string]string) any {
			return zedEntry{"custom", cmd, args, orEmpty(env)}
		}},
}

// orEmpty is env, or an empty object where the format shows one.
func orEmpty(env map[string]string) map[string]string {
	if env == nil {
		return map[string]string{}
	}
	return env
}

// Select returns the editors named in ids (comma-separated IDs), or all of
// them for "" or "all".
func Select(ids string) ([]Editor, error) {
	if ids == "" || ids == "all" {
		return All, nil
	}
	var out []Editor
	for id := range strings.SplitSeq(ids, ",") {
		id = strings.TrimSpace(id)
		i := indexOf(id)
		if i < 0 {
			return nil, fmt.Errorf("unknown editor %q; choose from %s", id, idList())
		}
		out = append(out, All[i])
	}
	return out, nil
}

func indexOf(id string) int {
	for i, e := range All {
		if e.ID == id {
			return i
		}
	}
	return -1
}

func idList() string {
	var s []string
	for _, e := range All {
		s = append(s, e.ID)
	}
	return strings.Join(s, ", ")
}

// Document returns the whole file a project without one would get.
func (e Editor) Document(s Server) ([]byte, error) {
	if e.Folder == "" && !filepath.IsAbs(s.Project) {
		return nil, fmt.Errorf("%s needs the project folder as an absolute path, not %q", e.Title, s.Project)
	}
	entry, err := json.MarshalIndent(e.entry(s.Command, e.args(s), s.Env), "    ", "  ")
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	fmt.Fprintf(&b, "{\n  %q: {\n    %q: %s\n  }\n}\n", e.Key, s.Name, entry)
	return b.Bytes(), nil
}

// Merge returns src with the server set under e.Key, replacing an entry of
// the same name and leaving everything else byte for byte as it was. src
// may hold comments and trailing commas. A file that does not parse, or
// whose root or e.Key is not an object, is an error and nothing is merged.
func (e Editor) Merge(src []byte, s Server) ([]byte, error) {
	if len(bytes.TrimSpace(src)) == 0 || e.Folder == "" && !filepath.IsAbs(s.Project) {
		return e.Document(s)
	}
	root, err := parseJSONC(src)
	if err != nil {
		return nil, err
	}
	if !root.object {
		return nil, errors.New("the file is not a JSON object")
	}
	servers, ok := root.find(e.Key)
	if ok && !servers.object {
		return nil, fmt.Errorf("%q is not an object", e.Key)
	}
	entry, err := json.MarshalIndent(e.entry(s.Command, e.args(s), s.Env), "    ", "  ")
	if err != nil {
		return nil, err
	}
	var at int
	var insert string
	switch old, found := servers.find(s.Name); {
	case !ok:
		at = root.open + 1
		insert = fmt.Sprintf("\n  %q: {\n    %q: %s\n  }", e.Key, s.Name, entry)
		insert += separator(root, "\n")
	case found:
		out := append([]byte{}, src[:old.start]...)
		out = append(out, entry...)
		return append(out, src[old.end:]...), nil
	default:
		at = servers.open + 1
		insert = fmt.Sprintf("\n    %q: %s", s.Name, entry)
		insert += separator(servers, "\n  ")
	}
	out := append([]byte{}, src[:at]...)
	out = append(out, insert...)
	return append(out, src[at:]...), nil
}

// separator is what follows a member inserted first into obj: a comma when
// other members follow, else a line break before the closing brace.
func separator(obj node, closing string) string {
	if len(obj.members) > 0 {
		return ","
	}
	return closing
}

// Write merges the server into the editor's file under dir, creating the
// file and its folder if needed. It returns the file's path and whether the
// file existed. The project is dir unless s.Project names it. A file that
// cannot be merged is left untouched.
func (e Editor) Write(dir string, s Server) (path string, existed bool, err error) {
	path = filepath.Join(dir, e.Path)
	if s.Project == "" {
		if s.Project, err = filepath.Abs(dir); err != nil {
			return path, false, err
		}
	}
	src, err := os.ReadFile(path)
	existed = err == nil
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return path, false, err
	}
	out, err := e.Merge(src, s)
	if err != nil {
		return path, existed, fmt.Errorf("%s: %w; fix the file or add the entry by hand (ratchet editors --editor %s prints it)", path, err, e.ID)
	}
	if existed && bytes.Equal(out, src) {
		return path, true, nil
	}
	mode := fs.FileMode(0o644)
	if fi, err := os.Stat(path); err == nil {
		mode = fi.Mode().Perm()
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return path, existed, err
	}
	// Write a sibling and rename, so an interrupted write never leaves half a file.
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*")
	if err != nil {
		return path, existed, err
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(out); err != nil {
		tmp.Close() // the write's error is the one to report; the file is removed
		return path, existed, err
	}
	if err := tmp.Chmod(mode); err != nil {
		tmp.Close() // the chmod's error is the one to report; the file is removed
		return path, existed, err
	}
	if err := tmp.Close(); err != nil {
		return path, existed, err
	}
	return path, existed, os.Rename(tmp.Name(), path)
}
