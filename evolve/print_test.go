package evolve

import (
	"strings"
	"testing"
)

// The round's summary, which ratchet evolve prints, shows the agent's
// hypothesis, component, reason and goal as one printable line each: no
// escape reaches the terminal and no line of their own (a forged accept).
func TestSummaryShowsAgentTextAsData(t *testing.T) {
	planted := "fine\x1b]52;c;ZXZpbA==\x07\x1b[1A\x1b[2K\r\n  9 *  accept\u009b2J\u202e"
	s := summary(Round{Decision: "reject", Reason: planted, Component: planted, Hypothesis: planted, Goal: planted})
	if strings.ContainsAny(s, "\x1b\x07\r\u009b\u202e") {
		t.Errorf("summary holds a control character: %q", s)
	}
	for _, line := range strings.Split(s, "\n") {
		if strings.HasPrefix(strings.TrimSpace(line), "9 *") {
			t.Errorf("summary prints a line of the agent's: %q", line)
		}
	}
	if !strings.Contains(s, "hypothesis: fine?]52") || strings.Count(s, "\n") != 2 {
		t.Errorf("summary = %q: want three lines (round, hypothesis, goal)", s)
	}
}
