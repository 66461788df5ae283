package core

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestResolve(t *testing.T) {
	root := t.TempDir()
	outside := t.TempDir()
	os.MkdirAll(filepath.Join(root, "pkg"), 0o755)
	os.WriteFile(filepath.Join(root, "pkg", "a.go"), []byte("package pkg"), 0o644)
	os.Symlink(outside, filepath.Join(root, "escape"))
	os.Symlink(filepath.Join(outside, "secret"), filepath.Join(root, "secret.txt"))
	os.Symlink("pkg", filepath.Join(root, "inner"))

	tests := []struct {
		path    string
		wantErr string // substring; empty means success
		want    string // relative to root when success
	}{
		{"pkg/a.go", "", "pkg/a.go"},
		{"", "", "."},
		{"./pkg/../pkg/a.go", "", "pkg/a.go"},
		{"new/dir/file.go", "", "new/dir/file.go"},
		{"inner/a.go", "", "pkg/a.go"},
		{"/etc/passwd", "absolute", ""},
		{"..", "leaves the task root", ""},
		{"../x", "leaves the task root", ""},
		{"pkg/../../x", "leaves the task root", ""},
		{"escape/x.go", "symlink", ""},
		{"escape/new/x.go", "symlink", ""},
		{"secret.txt", "symlink", ""},
	}
	realRoot, _ := filepath.EvalSymlinks(root)
	for _, tt := range tests {
		got, err := Resolve(root, tt.path)
		if tt.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("Resolve(%q) = %q, %v; want error containing %q", tt.path, got, err, tt.wantErr)
			}
			continue
		}
		if err != nil {
			t.Errorf("Resolve(%q): %v", tt.path, err)
			continue
		}
		if want := filepath.Join(realRoot, tt.want); got != want {
			t.Errorf("Resolve(%q) = %q, want %q", tt.path, got, want)
		}
	}
}
