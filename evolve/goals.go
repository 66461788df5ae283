package evolve

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"unicode"
)

// The goal queue is $ANCHOR_HOME/goals.txt: one operator goal per line,
// taken from the top, one per round. Blank lines and lines starting with #
// are skipped and kept.

func (c Config) goalsPath() string { return filepath.Join(c.Home, "goals.txt") }

// nextGoal returns the goal for the next round: the Goal of the command
// line, else the first goal queued in goals.txt. With take, a queued goal
// is removed from the file before the round starts.
func (c Config) nextGoal(take bool) (string, error) {
	if c.Goal != "" {
		return cleanGoal(c.Goal), nil
	}
	b, err := os.ReadFile(c.goalsPath())
	if errors.Is(err, os.ErrNotExist) {
		return "", nil
	} else if err != nil {
		return "", fmt.Errorf("read the goal queue: %w", err)
	}
	lines := strings.SplitAfter(string(b), "\n")
	for i, line := range lines {
		goal := strings.TrimSpace(line)
		if goal == "" || strings.HasPrefix(goal, "#") {
			continue
		}
		if take {
			rest := strings.Join(append(lines[:i:i], lines[i+1:]...), "")
			tmp := c.goalsPath() + ".tmp"
			if err := os.WriteFile(tmp, []byte(rest), 0o644); err != nil {
				return "", fmt.Errorf("take a goal from the queue: %w", err)
			}
			if err := os.Rename(tmp, c.goalsPath()); err != nil {
				return "", fmt.Errorf("take a goal from the queue: %w", err)
			}
		}
		return cleanGoal(goal), nil
	}
	return "", nil
}

// cleanGoal keeps a goal to one line of printable text.
func cleanGoal(s string) string {
	s = strings.Map(func(r rune) rune {
		if unicode.IsControl(r) {
			return ' '
		}
		return r
	}, s)
	return strings.Join(strings.Fields(s), " ")
}
