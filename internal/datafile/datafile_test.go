package datafile

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

func TestReadRefusesWhatIsNotData(t *testing.T) {
	dir := t.TempDir()
	secret := filepath.Join(dir, "secret")
	os.WriteFile(secret, []byte("MARK"), 0o600)
	os.WriteFile(filepath.Join(dir, "file"), []byte("0123456789"), 0o600)
	os.Symlink(secret, filepath.Join(dir, "link"))
	syscall.Mkfifo(filepath.Join(dir, "fifo"), 0o600)
	os.Mkdir(filepath.Join(dir, "folder"), 0o700)
	for name, want := range map[string]string{"link": "a link", "fifo": "not a regular file", "folder": "not a regular file", "missing": "no such file"} {
		if b, _, err := Read(filepath.Join(dir, name), 100); err == nil || !strings.Contains(err.Error(), want) || strings.Contains(string(b), "MARK") {
			t.Errorf("%s: %q, %v; want an error saying %q", name, b, err, want)
		}
	}
	if b, truncated, err := Read(filepath.Join(dir, "file"), 4); err != nil || string(b) != "0123" || !truncated {
		t.Errorf("capped read: %q %v %v", b, truncated, err)
	}
	if b, truncated, err := Read(filepath.Join(dir, "file"), 10); err != nil || string(b) != "0123456789" || truncated {
		t.Errorf("whole read: %q %v %v", b, truncated, err)
	}
}
