package anchor

import (
	"bytes"
	"fmt"
	"maps"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
)

var quotedString = regexp.MustCompile(`"((?:[^"\\\n]|\\.){8,})"|` + "`([^`\n]{8,})`")

// leak reports the first string of a train task found in an added line:
// task ids and module names (as whole tokens), and quoted strings of 8 or
// more characters from prompts and public tests. A string the incumbent
// harness already holds is vocabulary, not a leak.
func (a *Anchor) leak(diff string, incumbent map[string][]byte) string {
	vocab := string(bytes.Join(slices.Collect(maps.Values(incumbent)), nil))
	var added strings.Builder
	for _, l := range strings.Split(diff, "\n") {
		if strings.HasPrefix(l, "+") && !strings.HasPrefix(l, "+++") {
			added.WriteString(l[1:] + "\n")
		}
	}
	tasks, _ := filepath.Glob(filepath.Join(a.Tasks, "train", "*", "task.toml"))
	for _, tt := range tasks {
		t, err := LoadTask(filepath.Dir(tt))
		if err != nil {
			return "cannot check for leaks: " + err.Error()
		}
		repo, err := ReadTree(filepath.Join(t.Dir, "repo"), true)
		if err != nil {
			return "cannot check for leaks: " + err.Error()
		}
		names, texts := []string{t.ID}, t.Prompt
		for f, b := range repo {
			if filepath.Base(f) == "go.mod" {
				for _, m := range moduleLine.FindAllStringSubmatch(string(b), -1) {
					names = append(names, m[1])
				}
			} else if strings.Contains(filepath.Base(f), "test") {
				texts += "\n" + string(b)
			}
		}
		for _, m := range quotedString.FindAllStringSubmatch(texts, -1) {
			names = append(names, m[1]+m[2])
		}
		for _, n := range names {
			re := regexp.MustCompile(`(^|[^\w./-])` + regexp.QuoteMeta(n) + `($|[^\w./-])`)
			if re.MatchString(added.String()) && !re.MatchString(vocab) {
				return fmt.Sprintf("task-specific string in the diff: %q", n)
			}
		}
	}
	return ""
}
