package editors

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

var server = Server{Name: "ratchet", Command: "ratchet", Args: []string{"mcp"}, Project: "/src/app"}

// TestDocumentShapes parses each editor's file back and checks the keys that
// editor's documentation requires, and that nothing else is there.
func TestDocumentShapes(t *testing.T) {
	tests := []struct {
		id, path, key string
		want          map[string]any // the entry's documented fields, exactly
	}{
		{"vscode", ".vscode/mcp.json", "servers",
			map[string]any{"type": "stdio", "command": "ratchet", "args": []any{"mcp", "--root", "${workspaceFolder}"}}},
		{"cursor", ".cursor/mcp.json", "mcpServers",
			map[string]any{"command": "ratchet", "args": []any{"mcp", "--root", "${workspaceFolder}"}, "env": map[string]any{}}},
		{"claude", ".mcp.json", "mcpServers",
			map[string]any{"type": "stdio", "command": "ratchet", "args": []any{"mcp", "--root", "${CLAUDE_PROJECT_DIR:-.}"}, "env": map[string]any{}}},
		{"zed", ".zed/settings.json", "context_servers",
			map[string]any{"source": "custom", "command": "ratchet", "args": []any{"mcp", "--root", "/src/app"}, "env": map[string]any{}}},
	}
	if len(tests) != len(All) {
		t.Fatalf("%d editors, %d tested", len(All), len(tests))
	}
	for _, tt := range tests {
		t.Run(tt.id, func(t *testing.T) {
			eds, err := Select(tt.id)
			if err != nil {
				t.Fatal(err)
			}
			e := eds[0]
			if filepath.ToSlash(e.Path) != tt.path {
				t.Errorf("path = %s, want %s", e.Path, tt.path)
			}
			doc, err := e.Document(server)
			if err != nil {
				t.Fatal(err)
			}
			var got map[string]map[string]map[string]any
			if err := json.Unmarshal(doc, &got); err != nil {
				t.Fatalf("not JSON: %v\n%s", err, doc)
			}
			if len(got) != 1 || got[tt.key] == nil {
				t.Fatalf("top-level keys of %s, want only %q", doc, tt.key)
			}
			if entry := got[tt.key]["ratchet"]; !reflect.DeepEqual(entry, tt.want) {
				t.Errorf("entry = %v, want %v", entry, tt.want)
			}
		})
	}
}

func TestMerge(t *testing.T) {
	vscode, zed := All[0], All[3]
	tests := []struct {
		name   string
		editor Editor
		src    string
		want   string // "" when an error is expected
		errHas string
	}{
		{"empty file", vscode, "  \n", string(must(vscode.Document(server))), ""},
		{"other settings", vscode, "{\n  \"inputs\": []\n}\n",
			"{\n  \"servers\": {\n    \"ratchet\": {\n      \"type\": \"stdio\",\n      \"command\": \"ratchet\",\n      \"args\": [\n        \"mcp\",\n        \"--root\",\n        \"${workspaceFolder}\"\n      ]\n    }\n  },\n  \"inputs\": []\n}\n", ""},
		{"other servers", vscode, "{\"servers\": {\"db\": {\"type\": \"stdio\", \"command\": \"db-mcp\"}}}",
			"{\"servers\": {\n    \"ratchet\": {\n      \"type\": \"stdio\",\n      \"command\": \"ratchet\",\n      \"args\": [\n        \"mcp\",\n        \"--root\",\n        \"${workspaceFolder}\"\n      ]\n    },\"db\": {\"type\": \"stdio\", \"command\": \"db-mcp\"}}}", ""},
		{"empty servers", vscode, "{\"servers\": {}}",
			"{\"servers\": {\n    \"ratchet\": {\n      \"type\": \"stdio\",\n      \"command\": \"ratchet\",\n      \"args\": [\n        \"mcp\",\n        \"--root\",\n        \"${workspaceFolder}\"\n      ]\n    }\n  }}", ""},
		{"replaces an old entry", vscode, "{\"servers\": {\"ratchet\": {\"command\": \"old\"}, \"db\": {}}}",
			"{\"servers\": {\"ratchet\": {\n      \"type\": \"stdio\",\n      \"command\": \"ratchet\",\n      \"args\": [\n        \"mcp\",\n        \"--root\",\n        \"${workspaceFolder}\"\n      ]\n    }, \"db\": {}}}", ""},
		{"keeps comments and trailing commas", zed,
			"// Folder-specific settings\n{\n  /* tabs */ \"tab_size\": 4, // four\n  \"context_servers\": {},\n}\n",
			"// Folder-specific settings\n{\n  /* tabs */ \"tab_size\": 4, // four\n  \"context_servers\": {\n    \"ratchet\": {\n      \"source\": \"custom\",\n      \"command\": \"ratchet\",\n      \"args\": [\n        \"mcp\",\n        \"--root\",\n        \"/src/app\"\n      ],\n      \"env\": {}\n    }\n  },\n}\n", ""},
		{"byte order mark", vscode, "\uFEFF{}",
			"\uFEFF{\n  \"servers\": {\n    \"ratchet\": {\n      \"type\": \"stdio\",\n      \"command\": \"ratchet\",\n      \"args\": [\n        \"mcp\",\n        \"--root\",\n        \"${workspaceFolder}\"\n      ]\n    }\n  }\n}", ""},
		{"root is not an object", vscode, "[1, 2]", "", "not a JSON object"},
		{"servers is not an object", vscode, "{\"servers\": [1]}", "", `"servers" is not an object`},
		{"missing comma", vscode, "{\n  \"a\": 1\n  \"b\": 2\n}", "", "line 3: expected ','"},
		{"unterminated string", vscode, "{\n\"a\": \"x\n}", "", "line 2: newline inside a string"},
		{"unterminated comment", zed, "{ /* x \n}", "", "line 1: unterminated /* comment"},
		{"bad literal", vscode, "{\"a\": tru}", "", "line 1: expected a value"},
		{"trailing garbage", vscode, "{} x", "", "line 1: unexpected 'x'"},
		{"two roots", vscode, "{}{}", "", "unexpected '{'"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := tt.editor.Merge([]byte(tt.src), server)
			if tt.errHas != "" {
				if err == nil || !strings.Contains(err.Error(), tt.errHas) {
					t.Fatalf("err = %v, want one containing %q (output %s)", err, tt.errHas, got)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tt.want {
				t.Fatalf("merged:\n%s\nwant:\n%s", got, tt.want)
			}
			if _, err := parseJSONC(got); err != nil {
				t.Fatalf("the merged file does not parse: %v", err)
			}
			again, err := tt.editor.Merge(got, server)
			if err != nil || string(again) != string(got) {
				t.Errorf("merging twice changed the file:\n%s", again)
			}
		})
	}
}

// TestWrite writes every editor's file into a project that already has
// settings, twice, and checks that a malformed file is refused untouched.
func TestWrite(t *testing.T) {
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, ".cursor"), 0o755)
	cursorOld := `{"mcpServers": {"github": {"command": "gh-mcp", "args": ["stdio"]}}}`
	os.WriteFile(filepath.Join(dir, ".cursor", "mcp.json"), []byte(cursorOld), 0o600)
	os.MkdirAll(filepath.Join(dir, ".zed"), 0o755)
	zedBad := "{\n  \"tab_size\": 4,\n  \"theme\": \n}\n"
	os.WriteFile(filepath.Join(dir, ".zed", "settings.json"), []byte(zedBad), 0o644)

	for round := range 2 {
		for _, e := range All {
			path, existed, err := e.Write(dir, server)
			if e.ID == "zed" {
				if err == nil || !strings.Contains(err.Error(), "line 4") || strings.Contains(err.Error(), "\n") {
					t.Errorf("zed: err = %v, want one line naming line 4", err)
				}
				continue
			}
			if err != nil {
				t.Fatalf("%s: %v", e.ID, err)
			}
			if want := round > 0 || e.ID == "cursor"; existed != want {
				t.Errorf("round %d %s: existed = %v", round, e.ID, existed)
			}
			var doc map[string]map[string]map[string]any
			if err := json.Unmarshal(must(os.ReadFile(path)), &doc); err != nil {
				t.Fatalf("%s: %v", path, err)
			}
			if doc[e.Key]["ratchet"]["command"] != "ratchet" {
				t.Errorf("%s: %v", path, doc)
			}
			if e.ID == "cursor" && doc[e.Key]["github"]["command"] != "gh-mcp" {
				t.Errorf("the user's github server was lost: %v", doc)
			}
		}
	}
	if got := string(must(os.ReadFile(filepath.Join(dir, ".zed", "settings.json")))); got != zedBad {
		t.Errorf("the malformed file was changed:\n%s", got)
	}
	fi, err := os.Stat(filepath.Join(dir, ".cursor", "mcp.json"))
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("the file's mode was not kept: %v %v", fi.Mode(), err)
	}
	left, _ := filepath.Glob(filepath.Join(dir, ".*", ".*.json.*"))
	if len(left) > 0 {
		t.Errorf("temporary files left behind: %v", left)
	}
}

func TestSelect(t *testing.T) {
	if eds, err := Select("zed, vscode"); err != nil || len(eds) != 2 || eds[0].ID != "zed" || eds[1].ID != "vscode" {
		t.Errorf("Select = %v, %v", eds, err)
	}
	if _, err := Select("emacs"); err == nil || !strings.Contains(err.Error(), "vscode, cursor, claude, zed") {
		t.Errorf("err = %v, want the list of editors", err)
	}
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

// TestZedNamesTheProject: Zed has no variable for the open folder, so its
// entry names the project written to, and refuses a relative one.
func TestZedNamesTheProject(t *testing.T) {
	zed := All[3]
	if _, err := zed.Document(Server{Name: "ratchet", Command: "ratchet", Args: []string{"mcp"}, Project: "app"}); err == nil {
		t.Error("a relative project folder was accepted")
	}
	dir := t.TempDir()
	path, _, err := zed.Write(dir, Server{Name: "ratchet", Command: "ratchet", Args: []string{"mcp"}})
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]map[string]struct{ Args []string }
	if err := json.Unmarshal(must(os.ReadFile(path)), &doc); err != nil {
		t.Fatal(err)
	}
	if got := doc["context_servers"]["ratchet"].Args; !reflect.DeepEqual(got, []string{"mcp", "--root", dir}) {
		t.Errorf("args = %q, want mcp --root %s", got, dir)
	}
}
