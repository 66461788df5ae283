package evolve

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"ratchet/anchor"
	"strings"
)

// evolvePrompt is the evolve task's prompt. It asks for a general change:
// the anchor rejects any edit that carries a train task's strings.
const evolvePrompt = `This folder is a coding agent: a Go program (a harness) that drives a language model to fix bugs in Go repositories through four tools. manifest.toml lists the files you may change. FAILED.md lists training tasks the agent failed, and traces/ holds its step-by-step traces of those runs (JSON lines: model replies, tool calls, tool results).

1. Read FAILED.md and the traces. Diagnose what went wrong in the agent's behaviour.
2. Form one hypothesis: a change to exactly one file listed in manifest.toml that would make the agent succeed more often on tasks like these. The change must help in general: never copy task names, module names, file names or strings from the traces into it.
3. Make that change with write_file, keeping the rest of the file as it is.
4. Write the hypothesis, in one or two sentences, to HYPOTHESIS.md.
5. Run run_tests: the harness must still build and pass its own tests. Then stop.
`

// extras are the files of the evolve task that are not part of the harness.
var extras = map[string]bool{"traces": true, "FAILED.md": true, "HYPOTHESIS.md": true}

// buildTask writes the evolve task: the head harness plus condensed traces.
func (c Config) buildTask(dir string, failed []run) error {
	repo := filepath.Join(dir, "repo")
	if err := copyDir(c.Harness, repo); err != nil {
		return err
	}
	var list strings.Builder
	list.WriteString("# Failed training runs\n\n| run | task | score | trace |\n|---|---|---|---|\n")
	for _, f := range failed {
		name := "traces/" + f.ID + ".jsonl"
		fmt.Fprintf(&list, "| %s | %s | %.2f | %s |\n", f.ID, f.TaskID, f.Score, name)
		b, err := condense(f.TracePath)
		if err != nil {
			return err
		}
		if err := writeFile(filepath.Join(repo, name), b); err != nil {
			return err
		}
	}
	toml := fmt.Sprintf("prompt = %q\ntest = %q\ntimeout = \"900s\"\n", evolvePrompt, c.TestCommand)
	return errors.Join(writeFile(filepath.Join(repo, "FAILED.md"), []byte(list.String())), writeFile(filepath.Join(dir, "task.toml"), []byte(toml)))
}

const (
	fieldLimit = 1500  // characters kept of one long text field
	traceLimit = 40000 // bytes kept of one trace
)

// condense shortens a trace for the evolver: long texts keep their head and
// tail, and a long trace keeps its first and last events. Run ids stay.
func condense(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("read trace: %w", err)
	}
	defer f.Close()
	var lines [][]byte
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 64<<20)
	for sc.Scan() {
		var ev map[string]any
		if json.Unmarshal(sc.Bytes(), &ev) != nil {
			continue
		}
		for k, v := range ev {
			if s, ok := v.(string); ok && len(s) > fieldLimit {
				ev[k] = s[:fieldLimit/2] + fmt.Sprintf("\n[... %d characters left out ...]\n", len(s)-fieldLimit) + s[len(s)-fieldLimit/2:]
			}
		}
		b, _ := json.Marshal(ev)
		lines = append(lines, b)
	}
	total := 0
	for _, l := range lines {
		total += len(l) + 1
	}
	for total > traceLimit && len(lines) > 4 { // drop from the middle
		mid := len(lines) / 2
		total -= len(lines[mid]) + 1
		lines = append(lines[:mid], lines[mid+1:]...)
	}
	return append(bytes.Join(lines, []byte("\n")), '\n'), sc.Err()
}

// changedFiles lists the harness files that differ between the head working
// copy and the evolve run's final tree, added and removed files included.
func changedFiles(head, result string) ([]string, error) {
	a, err := readDir(head)
	if err != nil {
		return nil, err
	}
	b, err := readDir(result)
	if err != nil {
		return nil, fmt.Errorf("the evolve run left no tree: %w", err)
	}
	var changed []string
	for name, body := range b {
		if old, ok := a[name]; !ok || !bytes.Equal(old, body) {
			changed = append(changed, name)
		}
	}
	for name := range a {
		if _, ok := b[name]; !ok {
			changed = append(changed, name)
		}
	}
	return changed, nil
}

// readDir reads a harness tree (see anchor.ReadTree: links are never
// followed), leaving out dot-entries and the evolve task's extras.
func readDir(dir string) (map[string][]byte, error) {
	files, err := anchor.ReadTree(dir, false)
	for name := range files {
		if first, _, _ := strings.Cut(name, "/"); extras[first] || strings.HasPrefix(first, ".") {
			delete(files, name)
		}
	}
	return files, err
}

// makeDiff is git's unified diff of one file, from the head to the result.
func makeDiff(work, head, result, file string) ([]byte, error) {
	for side, root := range map[string]string{"a": head, "b": result} {
		b, err := os.ReadFile(filepath.Join(root, file))
		if err != nil && !os.IsNotExist(err) {
			return nil, err
		}
		if err == nil {
			if err := writeFile(filepath.Join(work, "diff", side, file), b); err != nil {
				return nil, err
			}
		}
	}
	os.MkdirAll(filepath.Join(work, "diff", "a"), 0o755)
	os.MkdirAll(filepath.Join(work, "diff", "b"), 0o755)
	cmd := exec.Command("git", "diff", "--no-index", "--no-prefix", "--binary", "a", "b")
	cmd.Dir = filepath.Join(work, "diff")
	out, err := cmd.Output()
	if ee, ok := err.(*exec.ExitError); ok && ee.ExitCode() == 1 {
		err = nil // differences found
	}
	if err != nil || len(out) == 0 {
		return nil, fmt.Errorf("git diff: %v", err)
	}
	return out, nil
}

func copyDir(src, dst string) error {
	files, err := readDir(src)
	if err != nil {
		return err
	}
	return anchor.WriteTree(dst, files)
}

func writeFile(p string, b []byte) error {
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return err
	}
	return os.WriteFile(p, b, 0o644)
}
