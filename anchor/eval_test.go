package anchor

import (
	"math"
	"testing"
)

// The summary an evaluation prints: the standard error of the mean over
// tasks, and the tasks whose repeats disagree, by name and sorted.
func TestEvalSummary(t *testing.T) {
	tests := []struct {
		name   string
		e      splitEval
		stdErr float64
		flaky  string
	}{
		{"one task has no spread", splitEval{Mean: 1, Tasks: map[string]float64{"a": 1}}, 0, ""},
		{"half and half", splitEval{Mean: 0.5, Tasks: map[string]float64{"a": 0, "b": 1}}, 0.5, ""},
		{"four tasks", splitEval{Mean: 0.5, Tasks: map[string]float64{"a": 0, "b": 0, "c": 1, "d": 1}},
			math.Sqrt(1.0 / 3 / 4), ""},
		{"repeats that disagree", splitEval{Runs: []Run{{TaskID: "b", Score: 1}, {TaskID: "b", Score: 0},
			{TaskID: "a", Score: 0.5}, {TaskID: "a", Score: 1}, {TaskID: "c", Score: 1}, {TaskID: "c", Score: 1},
			{TaskID: "b", Score: 1}}}, 0, "; flaky: a, b"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := stdErr(tt.e); math.Abs(got-tt.stdErr) > 1e-12 {
				t.Errorf("stdErr = %v, want %v", got, tt.stdErr)
			}
			if got := flaky(tt.e.Runs); got != tt.flaky {
				t.Errorf("flaky = %q, want %q", got, tt.flaky)
			}
		})
	}
}
