package evolve

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"unicode/utf8"

	"ratchet/anchor"
	"ratchet/harness/trace"
	"ratchet/internal/show"
)

// partLimit keeps every file of the workspace readable whole through the
// harness's own read_file: a tool result over 6000 characters reaches the
// model as its head and tail only. Longer texts become numbered parts.
const partLimit = 5000

// writeParts writes text as dir/name+ext, or, when it is longer than
// partLimit, as name.part1+ext, name.part2+ext, ... whose first line names
// the part and the next one. The parts' remaining lines, joined, are text.
// It returns the names of the files written.
func writeParts(dir, name, ext, text string) ([]string, error) {
	chunks := splitText(text, partLimit)
	if len(chunks) == 1 {
		return []string{name + ext}, writeFile(filepath.Join(dir, name+ext), []byte(text))
	}
	var names []string
	for i, chunk := range chunks {
		file := fmt.Sprintf("%s.part%d%s", name, i+1, ext)
		next := "this is the last part"
		if i+1 < len(chunks) {
			next = fmt.Sprintf("continued in %s.part%d%s", name, i+2, ext)
		}
		header := fmt.Sprintf("[%s%s, part %d of %d; %s]\n", name, ext, i+1, len(chunks), next)
		if err := writeFile(filepath.Join(dir, file), []byte(header+chunk)); err != nil {
			return nil, err
		}
		names = append(names, file)
	}
	return names, nil
}

// splitText cuts s into pieces of at most limit bytes, after a newline
// where one falls in the second half of a piece, never inside a character.
func splitText(s string, limit int) []string {
	var out []string
	for len(s) > limit {
		cut := limit
		if nl := strings.LastIndexByte(s[:limit], '\n'); nl >= limit/2 {
			cut = nl + 1
		}
		for cut > 0 && !utf8.RuneStart(s[cut]) {
			cut--
		}
		out = append(out, s[:cut])
		s = s[cut:]
	}
	return append(out, s)
}

var runID = regexp.MustCompile(`^[a-z0-9]{1,64}$`)

// traceRow is one run's line in traces/README.md.
type traceRow struct {
	run   anchor.Run
	steps int
	ended string
	index string
}

// writeTraces lays out every given train run under dir (traces/): one folder
// per run with one file per step, complete, and an index; and a README.md
// table of tasks, scores and tests passed, failed runs first.
func writeTraces(dir string, runs []anchor.Run) error {
	runs = slices.Clone(runs)
	slices.SortStableFunc(runs, func(a, b anchor.Run) int {
		return cmp.Or(cmp.Compare(a.Score, b.Score), strings.Compare(a.TaskID, b.TaskID), cmp.Compare(a.Repeat, b.Repeat))
	})
	var rows []traceRow
	for _, r := range runs {
		if !runID.MatchString(r.ID) {
			continue // not an id the anchor makes; never a path
		}
		row, err := writeTrace(filepath.Join(dir, r.ID), r)
		if err != nil {
			return fmt.Errorf("lay out the trace of run %s: %w", r.ID, err)
		}
		rows = append(rows, row)
	}
	var b strings.Builder
	b.WriteString("# Training runs of the head harness\n\n")
	b.WriteString("Every training task's latest run of the harness in ../harness/, failed and passed, each complete.\n")
	b.WriteString("Compare the failed runs with the passed ones. Open a run's index first: it lists every tool call\n")
	b.WriteString("(tool, arguments, size of the result, errors) and the files that hold each step in full.\n\n")
	b.WriteString("A task run more than once (repeats) has a row per repeat: the same harness, another draw of the model.\n\n")
	b.WriteString("| task | repeat | score | tests passed | steps | tokens | ended | run error | index |\n|---|---|---|---|---|---|---|---|---|\n")
	for _, row := range rows {
		r := row.run
		fmt.Fprintf(&b, "| %s | %d | %.2f | %d of %d | %d | %d | %s | %s | %s/%s |\n", cell(r.TaskID, 60), r.Repeat, r.Score, r.Passed, r.Total,
			row.steps, r.TokensIn+r.TokensOut, cell(row.ended, 40), cell(r.Error, 80), r.ID, row.index)
	}
	_, err := writeParts(dir, "README", ".md", b.String())
	return err
}

// callRow is one tool call (or model error) in a run's index.
type callRow struct {
	step                 int
	id, tool, args, errs string
	chars                int
}

// writeTrace renders one run's trace into dir: step-NNN.txt per step and
// index.md. A line that is not JSON is kept as text: the trace is data the
// harness wrote, never trusted.
func writeTrace(dir string, r anchor.Run) (traceRow, error) {
	row := traceRow{run: r, ended: "no done event"}
	var lines []trace.Line
	if raw, err := os.ReadFile(r.TracePath); err != nil {
		lines = []trace.Line{{Type: trace.TypeError, Event: trace.Error{Message: "no trace recorded: " + err.Error()}}}
	} else {
		lines, _ = trace.Read(bytes.NewReader(raw)) // a read from memory cannot fail
	}
	steps := map[int]*strings.Builder{}
	var order []int
	var calls []callRow
	byID := map[string]int{}
	current := 0
	text := func(step int) *strings.Builder {
		if steps[step] == nil {
			steps[step] = &strings.Builder{}
			order = append(order, step)
			title := fmt.Sprintf("Step %d", step)
			if step == 0 {
				title = "Before the first model call"
			}
			fmt.Fprintf(steps[step], "# %s of run %s (task %s)\n", title, r.ID, r.TaskID)
		}
		return steps[step]
	}
	// at moves to the step an event names; a step out of range is the
	// harness's nonsense and leaves the current one.
	at := func(step int) {
		if step >= 0 && step < 1e6 {
			current = step
		}
	}
	for _, l := range lines {
		switch e := l.Event.(type) {
		case trace.ModelCall:
			at(e.Step)
			fmt.Fprintf(text(current), "\n--- model call (attempt %d, %d messages sent) ---\n", e.Attempt, e.NMessages)
		case trace.ModelReply:
			at(e.Step)
			fmt.Fprintf(text(current), "\n--- model reply (stop reason %s, %d tool calls, usage %s) ---\n%s\n", e.StopReason, len(e.ToolCalls), compact(e.Usage), e.Text)
		case trace.ToolCall:
			at(e.Step)
			fmt.Fprintf(text(current), "\n--- call %s: %s ---\n%s", e.ID, e.Name, renderArgs(e.Args))
			byID[e.ID] = len(calls)
			calls = append(calls, callRow{step: current, id: e.ID, tool: e.Name, args: summarizeArgs(e.Args), chars: -1})
		case trace.ToolResult:
			at(e.Step)
			seen := "the agent saw all of it"
			if e.ShownChars != nil {
				seen = fmt.Sprintf("the agent saw only %d characters of it, head and tail", *e.ShownChars)
			}
			if e.Rejected {
				seen = "the call was rejected before it ran"
			}
			fmt.Fprintf(text(current), "\n--- result of call %s (%s): %d characters; %s ---\n%s\n", e.ID, e.Name, len(e.Result), seen, e.Result)
			if i, ok := byID[e.ID]; ok {
				calls[i].chars = len(e.Result)
				if e.Rejected || strings.HasPrefix(strings.ToLower(e.Result), "error") {
					calls[i].errs = firstLine(e.Result)
				}
			}
		case trace.Error:
			if e.Step != 0 { // a tool's panic names no step
				at(e.Step)
			}
			fmt.Fprintf(text(current), "\n--- error ---\n%s\n", e.Message)
			calls = append(calls, callRow{step: current, tool: "(model or loop)", errs: firstLine(e.Message), chars: -1})
		case trace.Done:
			row.ended = fmt.Sprintf("%s after %s", e.Reason, show.Count(e.Steps, "step"))
			fmt.Fprintf(text(current), "\n--- run ended: %s, usage %s ---\n", row.ended, compact(e.Usage))
		default:
			// Not an event the loop writes, or one whose values do not fit
			// it: shown field by field, or as text when it is not JSON.
			var ev map[string]any
			if json.Unmarshal(l.Raw, &ev) != nil {
				fmt.Fprintf(text(current), "\n--- a trace line that is not JSON ---\n%s\n", l.Raw)
				continue
			}
			if s, ok := ev["step"].(float64); ok && s >= 0 && s < 1e6 {
				current = int(s)
			}
			typ := str(ev["type"])
			delete(ev, "ts")
			delete(ev, "type")
			fmt.Fprintf(text(current), "\n--- event %s ---\n%s", typ, renderFields(ev))
		}
	}
	files := map[int][]string{}
	for _, step := range order {
		names, err := writeParts(dir, fmt.Sprintf("step-%03d", step), ".txt", steps[step].String())
		if err != nil {
			return row, err
		}
		files[step] = names
		row.steps = max(row.steps, step)
	}
	var idx strings.Builder
	fmt.Fprintf(&idx, "# Run %s: task %s\n\nscore %.2f (%d of %d tests passed), %d tokens in, %d out, ended: %s\n",
		r.ID, r.TaskID, r.Score, r.Passed, r.Total, r.TokensIn, r.TokensOut, row.ended)
	if r.Error != "" {
		fmt.Fprintf(&idx, "run error (from the judge): %s\n", r.Error)
	}
	idx.WriteString("\nEach step is in full in its file. A step longer than 5000 characters is split into parts\n(step-003.part1.txt, step-003.part2.txt, ...): read them in order.\n\n")
	idx.WriteString("## Steps\n\n| step | files |\n|---|---|\n")
	for _, step := range order {
		fmt.Fprintf(&idx, "| %d | %s |\n", step, strings.Join(files[step], " "))
	}
	idx.WriteString("\n## Tool calls and errors\n\n| step | tool | arguments | result characters | error |\n|---|---|---|---|---|\n")
	for _, c := range calls {
		size := "-"
		if c.chars >= 0 {
			size = fmt.Sprint(c.chars)
		}
		fmt.Fprintf(&idx, "| %d | %s | %s | %s | %s |\n", c.step, cell(c.tool, 40), cell(c.args, 100), size, cell(c.errs, 100))
	}
	names, err := writeParts(dir, "index", ".md", idx.String())
	if err == nil {
		row.index = names[0]
	}
	return row, err
}

// renderArgs shows a call's JSON arguments field by field, long texts
// verbatim, so that file contents read as files.
func renderArgs(args string) string {
	var m map[string]any
	if json.Unmarshal([]byte(args), &m) != nil {
		return args + "\n"
	}
	return renderFields(m)
}

func renderFields(m map[string]any) string {
	var b strings.Builder
	for _, k := range slices.Sorted(maps.Keys(m)) {
		s, ok := m[k].(string)
		if !ok {
			s = compact(m[k])
		}
		if strings.Contains(s, "\n") || len(s) > 100 {
			fmt.Fprintf(&b, "%s (%d characters):\n%s\n", k, len(s), s)
		} else {
			fmt.Fprintf(&b, "%s: %s\n", k, s)
		}
	}
	return b.String()
}

// summarizeArgs is one table cell: short values in full, long ones by size.
func summarizeArgs(args string) string {
	var m map[string]any
	if json.Unmarshal([]byte(args), &m) != nil {
		return clip(args, 80)
	}
	var parts []string
	for _, k := range slices.Sorted(maps.Keys(m)) {
		s, ok := m[k].(string)
		if !ok {
			s = compact(m[k])
		}
		if len(s) > 60 || strings.Contains(s, "\n") {
			s = fmt.Sprintf("(%d characters)", len(s))
		}
		parts = append(parts, k+"="+s)
	}
	return strings.Join(parts, " ")
}

// str is a trace event's text field, "" when the event has none.
func str(v any) string {
	s, _ := v.(string)
	return s
}

func compact(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(strings.TrimSpace(s), "\n")
	return line
}

// cell makes text safe for one markdown table cell.
func cell(s string, n int) string {
	s = strings.ReplaceAll(clip(s, n), "|", `\|`)
	if s == "" {
		return "-"
	}
	return s
}
