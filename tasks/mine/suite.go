package mine

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"time"

	"ratchet/anchor"
	"ratchet/tasks"
)

// stateFile is the file in a mined suite's root that makes a second run
// incremental: which repository it came from and which commits were seen.
const stateFile = "mined.json"

type state struct {
	Kind  string            `json:"kind"`  // "mine" or "mutate"
	Root  string            `json:"root"`  // the oldest commit of the first-parent chain: the repository
	Seen  map[string]bool   `json:"seen"`  // commits looked at, qualified or not
	Tasks map[string]string `json:"tasks"` // commit → split/id of its task
}

// openSuite reads out's state. A missing or empty out is a new suite; an
// out holding anything but a suite mined from root is refused, with what to
// do.
func openSuite(out, kind, root string) (state, error) {
	st := state{Kind: kind, Root: root, Seen: map[string]bool{}, Tasks: map[string]string{}}
	entries, err := os.ReadDir(out)
	if errors.Is(err, os.ErrNotExist) || err == nil && len(entries) == 0 {
		return st, nil
	}
	if err != nil {
		return st, err
	}
	b, err := os.ReadFile(filepath.Join(out, stateFile))
	if err != nil {
		return st, fmt.Errorf("--out %s already holds another suite (no %s): give a new or empty folder", out, stateFile)
	}
	var old state
	if err := json.Unmarshal(b, &old); err != nil || old.Seen == nil {
		return st, fmt.Errorf("--out %s: %s is unreadable; give a new or empty folder", out, stateFile)
	}
	if old.Kind != kind || old.Root != root {
		return st, fmt.Errorf("--out %s already holds a suite made by tasks %s from another repository: give a new or empty folder", out, old.Kind)
	}
	if old.Tasks == nil {
		old.Tasks = map[string]string{}
	}
	return old, nil
}

// save writes the state through a temporary file, so a killed run leaves
// the old one.
func (s state) save(out string) error {
	b, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		return err
	}
	tmp := filepath.Join(out, stateFile+".tmp")
	if err := os.WriteFile(tmp, append(b, '\n'), 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, filepath.Join(out, stateFile))
}

// splitOf puts the i-th of n units (oldest first) in its split: the first
// train% go to train, the next holdout% to holdout, the rest to sealed.
// Splits are drawn by unit, so no group spans two splits.
func splitOf(i, n int, split [3]int) string {
	total := split[0] + split[1] + split[2]
	at := (float64(i) + 0.5) / float64(n) * float64(total)
	switch {
	case at < float64(split[0]):
		return "train"
	case at < float64(split[0]+split[1]):
		return "holdout"
	}
	return "sealed"
}

// ParseSplit reads --split: three percentages, train/holdout/sealed, that
// add up to 100.
func ParseSplit(s string) ([3]int, error) {
	var sp [3]int
	_, err := fmt.Sscanf(s, "%d/%d/%d", &sp[0], &sp[1], &sp[2])
	if err != nil || sp[0] < 0 || sp[1] < 0 || sp[2] < 0 || sp[0]+sp[1]+sp[2] != 100 {
		return sp, fmt.Errorf("--split %q: want three percentages train/holdout/sealed that add up to 100, like 60/25/15", s)
	}
	return sp, nil
}

// task is a task ready to be written. Its group is the gate's unit (tasks
// that move together count once): a mined fix has none, so it is its own
// unit, for fixes of one package are as independent as any two tasks; the
// mutants of one function share one, for a harness that reads that
// function well fixes all of them. Never a whole package or module: a
// suite mined from one package would be one unit, and the gate could never
// accept on it.
type task struct {
	id, prompt, test, group string
	repo, hidden, reference map[string][]byte
	changedTests            map[string][]byte // Go: hidden/ without the pristine copies of unchanged test files
}

// write lays the task out under dir: task.toml, repo/, hidden/,
// reference/. Dot files and folders (.github, .gitignore) are left out: the
// anchor does not read them from a task.
func (t task) write(dir string) error {
	toml := fmt.Sprintf("prompt = %s\ntest = %s\n", tasks.TOMLString(t.prompt), tasks.TOMLString(t.test))
	if t.group != "" {
		toml += "group = " + tasks.TOMLString(t.group) + "\n"
	}
	err := anchor.WriteTree(dir, map[string][]byte{"task.toml": []byte(toml)})
	for sub, files := range map[string]map[string][]byte{"repo": t.repo, "hidden": t.hidden, "reference": t.reference} {
		if err == nil {
			err = os.MkdirAll(filepath.Join(dir, sub), 0o755)
		}
		if err == nil {
			kept := maps.Clone(files)
			maps.DeleteFunc(kept, func(name string, _ []byte) bool { return dotted(name) })
			err = anchor.WriteTree(filepath.Join(dir, sub), kept)
		}
	}
	return err
}

// dotted tells a path with a part that begins with a dot.
func dotted(name string) bool {
	return strings.HasPrefix(name, ".") || strings.Contains(name, "/.")
}

// hashes returns the anchor's task hash of every task already in out.
func hashes(out string) map[string]string {
	seen := map[string]string{}
	for _, split := range []string{"train", "holdout", "sealed"} {
		dirs, _ := filepath.Glob(filepath.Join(out, split, "*"))
		for _, d := range dirs {
			if files, err := anchor.ReadTree(d, true); err == nil {
				seen[anchor.HashOf(files)] = split + "/" + filepath.Base(d)
			}
		}
	}
	return seen
}

// taskHash is the anchor's task hash of the task folder dir.
func taskHash(dir string) string {
	files, _ := anchor.ReadTree(dir, true)
	return anchor.HashOf(files)
}

var nonWord = regexp.MustCompile(`[^a-z0-9]+`)

// slug is a few words of s for a task id.
func slug(s string) string {
	s = strings.Trim(nonWord.ReplaceAllString(strings.ToLower(s), "-"), "-")
	if len(s) > 32 {
		s = strings.TrimRight(s[:32], "-")
	}
	return s
}

// Summary is what a run did.
type Summary struct {
	Seen, New int            // commits (or mutants) looked at: all, and new this run
	Written   map[string]int // tasks written per split
	Skipped   map[string]int // commits (or mutants) skipped per reason
	Elapsed   time.Duration
}

// Print writes the summary: what was seen, written and skipped.
func (s Summary) Print(w io.Writer, what string) {
	total := s.Written["train"] + s.Written["holdout"] + s.Written["sealed"]
	fmt.Fprintf(w, "%s seen: %d (%d new); tasks written: %d (train %d, holdout %d, sealed %d) in %.1fs\n",
		what, s.Seen, s.New, total, s.Written["train"], s.Written["holdout"], s.Written["sealed"], s.Elapsed.Seconds())
	reasons := slices.Sorted(maps.Keys(s.Skipped))
	slices.SortStableFunc(reasons, func(a, b string) int { return s.Skipped[b] - s.Skipped[a] })
	for _, r := range reasons {
		fmt.Fprintf(w, "  skipped %4d  %s\n", s.Skipped[r], r)
	}
}

// Reasons is the skipped counts in one line, most first.
func (s Summary) Reasons() string {
	reasons := slices.Sorted(maps.Keys(s.Skipped))
	slices.SortStableFunc(reasons, func(a, b string) int { return s.Skipped[b] - s.Skipped[a] })
	var parts []string
	for _, r := range reasons {
		parts = append(parts, fmt.Sprintf("%d %s", s.Skipped[r], r))
	}
	return strings.Join(parts, ", ")
}

// progress prints a line to w at most every two seconds, and the last.
type progress struct {
	w    io.Writer
	last time.Time
}

func (p *progress) printf(final bool, format string, args ...any) {
	if p.w == nil || !final && time.Since(p.last) < 2*time.Second {
		return
	}
	p.last = time.Now()
	fmt.Fprintf(p.w, format+"\n", args...)
}
