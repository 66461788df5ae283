package audit

import (
	"context"
	"strings"
	"testing"

	"ratchet/internal/testtree"
)

// The log lists each generation with the gate's evidence and its cost, the
// head marked; a reason is printed as data; and the runs another judge
// scored (another anchor build or Go toolchain than the one that scored the
// latest run) are counted, before and after the run cache runs them again.
func TestLogShowsTheGenerationsAndStaleRuns(t *testing.T) {
	l := newLedger(t)
	l.apply(t, "Be CAREFUL.")
	ctx := context.Background()
	lines, err := l.Log(ctx)
	if err != nil || len(lines) != 2 {
		t.Fatalf("log: %v\n%s", err, strings.Join(lines, "\n"))
	}
	for i, want := range [][]string{
		{"  0   baseline", "train     - -> 0.000  holdout     - -> 0.000", "hand-written baseline", "[cost: 3 runs, 0 cached"},
		{"  1 * accept", "train 0.000 -> 0.500 (+1 -0 p=0.500)", "holdout 0.000 -> 1.000 (+1 -0 p=0.500)", "system_prompt.md",
			"requests, ", "upstream tokens; stopped at holdout batch 1 of 1]"},
	} {
		for _, w := range want {
			if !strings.Contains(lines[i], w) {
				t.Errorf("line %d %q lacks %q", i, lines[i], w)
			}
		}
	}
	l.exec(t, `UPDATE generations SET reason = reason || ? WHERE gen = 1`, "\x1b]52;c;eA==\x07\u202e\u0085\nforged")
	lines, _ = l.Log(ctx)
	if len(lines) != 2 || strings.ContainsAny(lines[1], "\x1b\x07\u202e\u0085\n") || !strings.Contains(lines[1], "52;c;eA==") {
		t.Errorf("the log printed a reason's escapes raw, or dropped it: %q", lines)
	}

	l.exec(t, `UPDATE runs SET judge = 'an older anchor go1.25.0' WHERE task_id = 't-a' AND harness_hash =
		(SELECT harness_hash FROM generations WHERE gen = 0)`)
	lines, _ = l.Log(ctx)
	if last := lines[len(lines)-1]; last != "1 runs were scored by another judge than the newest; they run again" {
		t.Errorf("the log does not say a run was invalidated: %q", lines)
	}
	if code := l.anchor("eval", "--harness", gensHash(t, l, 0), "--split", "train"); code != 0 {
		t.Fatalf("anchor eval: exit status %d", code)
	}
	lines, _ = l.Log(ctx)
	if last := lines[len(lines)-1]; last != "1 runs were scored by another judge than the newest; they run again" {
		t.Errorf("after the rerun the older run is not counted once: %q", lines)
	}
}

// A ledger without generations says how to make the first.
func TestLogOfAnEmptyLedger(t *testing.T) {
	l := &ledger{Ledger: Ledger{Home: t.TempDir(), Tasks: t.TempDir()}}
	testtree.AddTask(t, l.Tasks, "train", "t-a", nil)
	if code := l.anchor("snapshot", l.Tasks); code != 0 { // opens the ledger, and makes no generation
		t.Fatalf("anchor snapshot: exit status %d", code)
	}
	lines, err := l.Log(context.Background())
	if err != nil || len(lines) != 1 || !strings.HasPrefix(lines[0], "no generations yet: anchor init") {
		t.Errorf("log of an empty ledger: %v %q", err, lines)
	}
}

// gensHash is the harness of generation gen.
func gensHash(t *testing.T, l *ledger, gen int) string {
	t.Helper()
	gens, err := l.Ledger.Generations(context.Background())
	if err != nil || len(gens) <= gen {
		t.Fatalf("generations: %v", err)
	}
	return gens[gen]["harness_hash"].(string)
}
