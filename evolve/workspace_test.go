package evolve

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"ratchet/anchor"
)

func TestSplitText(t *testing.T) {
	long := strings.Repeat("line of text, ", 400) + "\n" + strings.Repeat("é", 4000) + "\nend\n"
	for _, tc := range []struct {
		name, text string
		parts      int
	}{
		{"short", "hello\n", 1},
		{"exactly the limit", strings.Repeat("x", partLimit), 1},
		{"one over", strings.Repeat("x", partLimit+1), 2},
		{"lines and runes", long, 3},
	} {
		got := splitText(tc.text, partLimit)
		if len(got) != tc.parts || strings.Join(got, "") != tc.text {
			t.Errorf("%s: %d parts (want %d), joined equal: %v", tc.name, len(got), tc.parts, strings.Join(got, "") == tc.text)
		}
		for i, p := range got {
			if len(p) > partLimit || !utf8.ValidString(p) {
				t.Errorf("%s: part %d has %d bytes, valid UTF-8 %v", tc.name, i, len(p), utf8.ValidString(p))
			}
		}
	}
}

func TestWriteParts(t *testing.T) {
	dir := t.TempDir()
	text := strings.Repeat("0123456789\n", 1200) // 13200 bytes: three parts
	names, err := writeParts(dir, "step-004", ".txt", text)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(names, " ") != "step-004.part1.txt step-004.part2.txt step-004.part3.txt" {
		t.Fatalf("names = %v", names)
	}
	var joined strings.Builder
	for i, n := range names {
		b, _ := os.ReadFile(filepath.Join(dir, n))
		header, body, _ := strings.Cut(string(b), "\n")
		if len(b) >= 6000 || !strings.Contains(header, "part "+string(rune('1'+i))+" of 3") {
			t.Errorf("%s: %d bytes, header %q", n, len(b), header)
		}
		joined.WriteString(body)
	}
	if joined.String() != text {
		t.Error("the parts do not join to the text")
	}
	if names, _ := writeParts(dir, "short", ".md", "hi\n"); len(names) != 1 || names[0] != "short.md" {
		t.Errorf("a short text: %v", names)
	}
}

func TestDecisionNeverShowsHoldout(t *testing.T) {
	f := func(v float64) *float64 { return &v }
	for _, tc := range []struct {
		gen             anchor.Gen
		verdict, reason string
	}{
		{anchor.Gen{Decision: "accept", Reason: "train 0.400 -> 0.500, holdout 0.465 -> 0.528: 3 fixed, 0 broken, p = 0.031 ≤ 0.05", TrainPre: f(0.4), TrainPost: f(0.5)},
			"accepted", "train improved (0.400 -> 0.500) and holdout improved"},
		{anchor.Gen{Decision: "reject", Reason: "holdout 0.465 -> 0.528: 3 fixed, 1 broken, p = 0.31 > 0.05"}, "rejected", "holdout did not improve"},
		{anchor.Gen{Decision: "reject", Reason: "forged score on holdout task secret-task (run abc): canary"}, "rejected", "holdout did not improve"},
		{anchor.Gen{Decision: "reject", Reason: "train 0.400 -> 0.400: 2 fixed, 2 broken (did not improve; a tie rejects)"},
			"rejected", "train 0.400 -> 0.400: 2 fixed, 2 broken (did not improve; a tie rejects)"},
		{anchor.Gen{Decision: "reject", Reason: `task-specific string in the diff: "double-a"`}, "rejected", `task-specific string in the diff: "double-a"`},
		{anchor.Gen{Decision: "interrupted", Reason: "interrupted during step 6: evaluate on holdout: model server down"}, "interrupted", "the judge was interrupted before it decided"},
		{anchor.Gen{Decision: "odd", Reason: "sealed 0.9"}, "odd", "(reason not shown: it concerns holdout)"},
	} {
		verdict, reason := decision(tc.gen)
		if verdict != tc.verdict || reason != tc.reason {
			t.Errorf("decision(%s, %q) = %q, %q; want %q, %q", tc.gen.Decision, tc.gen.Reason, verdict, reason, tc.verdict, tc.reason)
		}
	}
}

func TestWriteTraceKeepsEverything(t *testing.T) {
	dir := t.TempDir()
	big := strings.Repeat("a long tool result line\n", 1000)
	trace := strings.Join([]string{
		`{"type":"model_call","step":1,"attempt":1,"n_messages":2}`,
		`{"type":"model_reply","step":1,"text":"Reading.","tool_calls":[{}],"stop_reason":"tool_calls"}`,
		`{"type":"tool_call","step":1,"id":"c1","name":"read_file","args":"{\"path\":\"big.txt\"}"}`,
		`{"type":"tool_result","step":1,"id":"c1","name":"read_file","result":` + quote(big) + `,"truncated":true,"shown_chars":5540}`,
		`not json at all`,
		`{"type":"tool_call","step":2,"id":"c2","name":"write_file","args":"{\"path\":\"x.go\",\"content\":\"package x\\n\"}"}`,
		`{"type":"tool_result","step":2,"id":"c2","name":"write_file","result":"error: x.go is not a regular file"}`,
		`{"type":"done","steps":2,"reason":"completed"}`,
	}, "\n")
	path := filepath.Join(dir, "trace.jsonl")
	os.WriteFile(path, []byte(trace), 0o644)
	row, err := writeTrace(filepath.Join(dir, "out"), anchor.Run{ID: "abc", TaskID: "t", TracePath: path, Score: 0.5, Passed: 1, Total: 2})
	if err != nil {
		t.Fatal(err)
	}
	all := readAll(t, filepath.Join(dir, "out"))
	for _, want := range []string{"not json at all", "| 1 | read_file | path=big.txt | 24000 | - |", "| 2 | write_file | content=(10 characters) path=x.go | 33 | error: x.go is not a regular file |",
		"the agent saw only 5540 characters of it", "completed after 2 steps"} {
		if !strings.Contains(all, want) {
			t.Errorf("the laid-out trace lacks %q", want)
		}
	}
	if row.steps != 2 || row.index != "index.md" {
		t.Errorf("row = %+v", row)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "out", "step-001.part*.txt"))
	if len(files) != 5 {
		t.Errorf("step 1 has %d parts, want 5", len(files))
	}
}

// TestWriteTraceShowsWhatItCannotType: a trace is the harness's data, so
// events of a kind the loop does not write, events whose values do not fit
// their kind and a last line cut short by a killed run are all shown, each
// in its step; a tool's panic, which names no step, stays in the current one.
func TestWriteTraceShowsWhatItCannotType(t *testing.T) {
	dir := t.TempDir()
	trace := strings.Join([]string{
		`{"type":"model_call","step":1,"attempt":1,"n_messages":2}`,
		`{"type":"model_call","step":2,"attempt":1,"n_messages":4}`,
		`{"type":"error","message":"tool boom panic: kaboom"}`,
		`{"type":"note","step":1,"what":"a tool's own event"}`,
		`{"type":"model_call","step":2,"attempt":"second","n_messages":6}`,
		`{"type":"tool_result","step":2,"id":"c9","result":"cut sh`,
	}, "\n")
	path := filepath.Join(dir, "trace.jsonl")
	os.WriteFile(path, []byte(trace), 0o644)
	row, err := writeTrace(filepath.Join(dir, "out"), anchor.Run{ID: "abc", TaskID: "t", TracePath: path})
	if err != nil {
		t.Fatal(err)
	}
	for file, wants := range map[string][]string{
		"step-001.txt": {"--- event note ---\nstep: 1\nwhat: a tool's own event\n"},
		"step-002.txt": {"--- error ---\ntool boom panic: kaboom\n", "--- event model_call ---\nattempt: second\nn_messages: 6\nstep: 2\n",
			"--- a trace line that is not JSON ---\n" + `{"type":"tool_result","step":2,"id":"c9","result":"cut sh` + "\n"},
	} {
		text := readAll(t, filepath.Join(dir, "out", file))
		for _, want := range wants {
			if !strings.Contains(text, want) {
				t.Errorf("%s lacks %q:\n%s", file, want, text)
			}
		}
	}
	if row.ended != "no done event" {
		t.Errorf("ended = %q", row.ended)
	}
}

func quote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

func TestTaskTOMLCarriesAnyGoal(t *testing.T) {
	goal := cleanGoal("Fix \\d+ regexes, \"quoted\" and 'single' and ''' triple,\x01 tabs\tand\nnewlines")
	dir := filepath.Join(t.TempDir(), "evolve", "task")
	if err := writeFile(filepath.Join(dir, "task.toml"), taskTOML(goal, `go vet ./... && go test -run "X|Y" ./...`)); err != nil {
		t.Fatal(err)
	}
	task, err := anchor.LoadTask(dir)
	if err != nil {
		t.Fatal(err)
	}
	wantGoal := strings.ReplaceAll(goal, "'''", "''")
	if !strings.Contains(task.Prompt, "The operator's goal for this round: "+wantGoal+"\n") || strings.Contains(goal, "\n") || strings.Contains(goal, "\x01") {
		t.Errorf("goal %q; prompt:\n%s", goal, task.Prompt)
	}
	if task.Test != `cd harness && go vet ./... && go test -run "X|Y" ./...` {
		t.Errorf("test = %q", task.Test)
	}
}

func TestGoalQueue(t *testing.T) {
	c := Config{Home: t.TempDir()}
	if g, err := c.nextGoal(true); g != "" || err != nil {
		t.Errorf("no queue: %q, %v", g, err)
	}
	os.WriteFile(c.goalsPath(), []byte("# goals\n\n  first goal  \nsecond goal\n"), 0o644)
	if g, _ := c.nextGoal(false); g != "first goal" {
		t.Errorf("peek = %q", g)
	}
	for _, want := range []string{"first goal", "second goal", ""} {
		if g, err := c.nextGoal(true); g != want || err != nil {
			t.Errorf("take = %q, %v; want %q", g, err, want)
		}
	}
	if b, _ := os.ReadFile(c.goalsPath()); string(b) != "# goals\n\n" {
		t.Errorf("goals.txt left = %q", b)
	}
	c.Goal = "from the command line"
	os.WriteFile(c.goalsPath(), []byte("queued\n"), 0o644)
	if g, _ := c.nextGoal(true); g != "from the command line" {
		t.Errorf("--goal lost to the queue: %q", g)
	}
	if b, _ := os.ReadFile(c.goalsPath()); string(b) != "queued\n" {
		t.Errorf("--goal took from the queue: %q", b)
	}
}

func TestEvolveHomePerEvolverModel(t *testing.T) {
	home := func(env ...string) string {
		return Config{Home: "/h", EvolveEnv: evolveEnv(append([]string{"MODEL_API=openai", "MODEL_NAME=task"}, env...))}.evolveHome()
	}
	a, b := home("EVOLVE_MODEL_NAME=big"), home("EVOLVE_MODEL_NAME=bigger")
	if a == b || a != home("EVOLVE_MODEL_NAME=big") || home("EVOLVE_MODEL_NAME=big", `EVOLVE_MODEL_OPTIONS={"num_ctx":8192}`) == a {
		t.Errorf("evolver ledgers: %s %s", a, b)
	}
	if !strings.HasPrefix(a, "/h/evolve/ledger-") {
		t.Errorf("evolver ledger %s is not under the anchor's home", a)
	}
}
