package tasks

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"ratchet/anchor"
)

// GroupReport counts the groups of each split among the task folders dirs
// (a task's group is task.toml's group, else its id: see tasks/README.md)
// and warns, on one line, of every group with tasks in more than
// one split: the gate counts groups as its units, and a holdout group that
// train also holds measures recall of what train shows, not new work.
func GroupReport(dirs []string) string {
	splits := map[string]map[string]int{}  // group -> split -> tasks
	groups := map[string]map[string]bool{} // split -> groups
	tasks := map[string]int{}
	for _, d := range dirs {
		t, err := anchor.LoadTask(d)
		if err != nil {
			continue // the table names the task's problem
		}
		if splits[t.Group] == nil {
			splits[t.Group] = map[string]int{}
		}
		if groups[t.Split] == nil {
			groups[t.Split] = map[string]bool{}
		}
		splits[t.Group][t.Split]++
		groups[t.Split][t.Group] = true
		tasks[t.Split]++
	}
	var counts, shared []string
	for _, s := range []string{"train", "holdout", "sealed"} {
		counts = append(counts, fmt.Sprintf("%s %d in %d tasks", s, len(groups[s]), tasks[s]))
	}
	for _, g := range slices.Sorted(maps.Keys(splits)) {
		if len(splits[g]) > 1 {
			var in []string
			for _, s := range []string{"train", "holdout", "sealed"} {
				if n := splits[g][s]; n > 0 {
					in = append(in, fmt.Sprintf("%s %d", s, n))
				}
			}
			shared = append(shared, fmt.Sprintf("%s (%s)", g, strings.Join(in, ", ")))
		}
	}
	report := "groups: " + strings.Join(counts, ", ") + "\n"
	if len(shared) > 0 {
		report += fmt.Sprintf("warning: %d group(s) have tasks in more than one split, so holdout and sealed re-test "+
			"kinds train shows; give each group one split: %s\n", len(shared), strings.Join(shared, "; "))
	}
	return report
}
