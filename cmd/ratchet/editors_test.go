package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestEditorsCommandWrites(t *testing.T) {
	dir := t.TempDir()
	vscode := filepath.Join(dir, ".vscode", "mcp.json")
	os.MkdirAll(filepath.Dir(vscode), 0o755)
	os.WriteFile(vscode, []byte(`{"inputs": [], "servers": {"db": {"type": "stdio", "command": "db"}}}`), 0o644)
	err := run(context.Background(), []string{"editors", "--write", dir, "--command", "/opt/ratchet", "--", "--ledger", "/srv/ledger"})
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Inputs  []any                     `json:"inputs"`
		Servers map[string]map[string]any `json:"servers"`
	}
	b, _ := os.ReadFile(vscode)
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	r := doc.Servers["ratchet"]
	args := fmt.Sprint(r["args"])
	if doc.Inputs == nil || doc.Servers["db"] == nil || r["command"] != "/opt/ratchet" || args != "[mcp --ledger /srv/ledger --root ${workspaceFolder}]" {
		t.Errorf(".vscode/mcp.json = %s", b)
	}
	for _, f := range []string{".cursor/mcp.json", ".mcp.json", ".zed/settings.json"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Error(err)
		}
	}
}

func TestEditorsCommandRefusesMalformedFiles(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, ".mcp.json")
	os.WriteFile(path, []byte("{\"mcpServers\": {,}}"), 0o644)
	err := run(context.Background(), []string{"editors", "--editor", "claude,vscode", "--write", dir})
	if err == nil || !strings.Contains(err.Error(), ".mcp.json: line 1") || strings.Contains(err.Error(), "\n") {
		t.Fatalf("err = %v, want one line naming the file and the line", err)
	}
	if b, _ := os.ReadFile(path); string(b) != "{\"mcpServers\": {,}}" {
		t.Errorf("the malformed file changed: %s", b)
	}
	if _, err := os.Stat(filepath.Join(dir, ".vscode", "mcp.json")); err != nil {
		t.Errorf("the other editor was not set up: %v", err)
	}
}
