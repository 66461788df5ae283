package anchor

import (
	"bytes"
	"cmp"
	crand "crypto/rand"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// candidate is what the evolver submits.
type candidate struct {
	Diff       string   `json:"diff"`
	Component  string   `json:"component"`
	Hypothesis string   `json:"hypothesis"`
	TraceIDs   []string `json:"trace_ids"`
	Goal       string   `json:"goal"`
}

// readCandidate reads a candidate JSON and its diff, which must be a file
// inside the candidate's folder.
func readCandidate(path string) (candidate, []byte, error) {
	var c candidate
	b, err := os.ReadFile(path)
	if err != nil {
		return c, nil, fmt.Errorf("read candidate: %w; nothing was recorded", err)
	}
	if err := json.Unmarshal(b, &c); err != nil {
		return c, nil, fmt.Errorf("read candidate %s: want JSON {diff, component, hypothesis, trace_ids, goal}: "+
			"%v; nothing was recorded", path, err)
	}
	if c.Component == "" || c.Diff == "" {
		return c, nil, fmt.Errorf("read candidate %s: diff and component are required; nothing was recorded", path)
	}
	if !filepath.IsLocal(c.Diff) {
		return c, nil, fmt.Errorf("read candidate %s: diff %q must be a path inside the candidate's folder; "+
			"nothing was recorded", path, c.Diff)
	}
	root, err := os.OpenRoot(filepath.Dir(path))
	if err != nil {
		return c, nil, fmt.Errorf("read candidate: %w; nothing was recorded", err)
	}
	defer root.Close()
	diff, err := root.ReadFile(c.Diff) // through os.Root: a link cannot lead out of the folder
	if err != nil {
		return c, nil, fmt.Errorf("read candidate diff: %w; nothing was recorded", err)
	}
	if !bytes.HasPrefix(diff, []byte("--- ")) && !bytes.Contains(diff, []byte("\n--- ")) {
		return c, nil, fmt.Errorf("read candidate: %s is not a unified diff; nothing was recorded", c.Diff)
	}
	return c, diff, nil
}

// checkDiff applies steps 1 and 2 of the rule, reading the diff with git's
// own parser: one editable file, changed in place (no rename, copy, mode
// change, symlink, binary or deletion), and not rewritten whole. It returns
// a rejection reason, or "" when the diff passes.
func checkDiff(diff []byte, component string, editable []string, files map[string][]byte) string {
	out, err := gitApply(diff, "", "--numstat", "--summary").CombinedOutput()
	if err != nil {
		return "the diff is empty or not a diff git can read: " + strings.TrimSpace(string(out))
	}
	touched, removed := []string{}, 0
	for _, l := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Split(l, "\t")
		switch {
		case strings.HasPrefix(l, " "):
			return "the diff changes more than file content: " + strings.TrimSpace(l)
		case len(f) != 3 || f[0] == "-":
			return "the diff changes a binary file: " + l
		case !filepath.IsLocal(f[2]):
			return fmt.Sprintf("the diff touches a path outside the harness: %q", f[2])
		}
		n, err := strconv.Atoi(f[1])
		if err != nil {
			return "the diff cannot be counted: " + l
		}
		touched, removed = append(touched, f[2]), removed+n
	}
	lines := strings.Count(string(files[component]), "\n")
	switch {
	case !slices.Contains(editable, component):
		return fmt.Sprintf("component %q is not listed in manifest.toml", component)
	case len(touched) != 1 || touched[0] != component:
		return fmt.Sprintf("the diff must touch exactly %s; it touches %s", component, strings.Join(touched, ", "))
	case lines >= 10 && removed*5 >= lines*4:
		return fmt.Sprintf("whole-file rewrite: the diff removes %d of %d lines", removed, lines)
	}
	return ""
}

// applyDiff applies the diff with git apply to a scratch copy of the
// snapshot and stores the result as g's harness. It returns a rejection
// reason: a diff that does not apply, or one that changes nothing.
func (a *Anchor) applyDiff(g *Gen, hash string, diff []byte) string {
	dir := a.path("tmp", "apply-"+crand.Text())
	defer os.RemoveAll(dir)
	files, err := a.readSnapshot(hash)
	if err == nil {
		err = WriteTree(dir, files)
	}
	if err != nil {
		return err.Error()
	}
	if out, err := gitApply(diff, dir, "--whitespace=nowarn").CombinedOutput(); err != nil {
		return "the diff does not apply: " + strings.TrimSpace(string(out))
	}
	g.Hash, err = a.Snapshot(dir)
	if err != nil {
		return err.Error()
	}
	if g.Hash == hash {
		return "no-op: the diff leaves the harness unchanged"
	}
	return ""
}

// gitApply runs git apply on diff in dir, never inside a repository that
// happens to enclose dir.
func gitApply(diff []byte, dir string, flags ...string) *exec.Cmd {
	args := append([]string{"apply"}, flags...)
	cmd := exec.Command("git", append(args, "-")...)
	cmd.Dir, cmd.Stdin = cmp.Or(dir, "/"), bytes.NewReader(diff)
	cmd.Env = append(os.Environ(), "GIT_DIR=/nonexistent")
	return cmd
}
