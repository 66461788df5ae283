// Package ui is the dashboard: a read-only web page over the anchor's ledger
// (ANCHOR_HOME). It shows the generations with their train and holdout scores
// as a chart, the gate's evidence (fixed and broken tasks, p, the frozen
// repeats and alpha), the head's standard errors and flaky tasks, each
// generation's decision, reason, goal, hypothesis and diff, a per-task matrix
// across generations with each run's outcome, and a step-by-step viewer of
// train traces. The page ships inside the binary; there is no build step.
//
// It reads the ledger only through internal/ledgerdb, so the error text of
// holdout and sealed runs never reaches it, and it reads trace and diff files
// as data: opened without following links or blocking, regular files only,
// capped.
package ui

import (
	"context"
	"embed"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"math"
	"net/http"
	"os"
	"path/filepath"
	"ratchet/internal/datafile"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"ratchet/internal/ledgerdb"
	"ratchet/internal/show"
)

//go:embed static
var static embed.FS

// Handler serves the dashboard for the ledger in Home.
type Handler struct{ Home string }

// Caps on what the dashboard reads from a file the harness or a candidate
// produced (the anchor caps traces at 64 MiB when it keeps them).
var (
	traceLimit int64 = 16 << 20
	diffLimit  int64 = 4 << 20
)

func (h Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	switch p := r.URL.Path; {
	case p == "/api/generations":
		// Every column, so the cost of a decision (runs, runs_cached, requests,
		// upstream_tokens, stopped) shows where the ledger has it.
		h.rows(w, r, `SELECT *, gen = (SELECT gen FROM head) AS head FROM generations ORDER BY gen`)
	case p == "/api/matrix":
		// The latest run of each task and repeat for each generation's
		// harness; runs lost to the infrastructure are no score. Only
		// train runs link to traces: holdout and sealed traces stay hidden.
		h.rows(w, r, `SELECT g.gen, r.task_id, r.split, r."repeat", r.score, r.passed, r.total, r.outcome, r.error,
			CASE WHEN r.split = 'train' THEN r.id ELSE '' END AS run_id
			FROM generations g JOIN runs r ON r.harness_hash = g.harness_hash
			WHERE r.split IN ('train', 'holdout') AND r.outcome != 'infra' AND r.created_at = (SELECT MAX(created_at) FROM runs
			  WHERE harness_hash = r.harness_hash AND task_id = r.task_id AND model = r.model AND "repeat" = r."repeat" AND outcome != 'infra')
			ORDER BY r.split DESC, r.task_id, g.gen, r."repeat"`)
	case p == "/api/head":
		h.head(w, r)
	case strings.HasPrefix(p, "/api/diff/"):
		h.diff(w, strings.TrimPrefix(p, "/api/diff/"))
	case strings.HasPrefix(p, "/api/trace/"):
		h.trace(w, r, strings.TrimPrefix(p, "/api/trace/"))
	default:
		sub, _ := fs.Sub(static, "static")
		w.Header().Set("Cache-Control", "no-cache")
		http.FileServerFS(sub).ServeHTTP(w, r)
	}
}

func fail(w http.ResponseWriter, code int, msg string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	b, _ := show.JSON(map[string]string{"error": msg})
	w.Write(append(b, '\n')) // a client that hung up has no one to tell
}

// reply writes v as JSON, its strings through the sanitiser: the ledger's
// and a trace's text is an agent's.
func reply(w http.ResponseWriter, v any) {
	b, err := show.JSON(v)
	if err != nil {
		fail(w, http.StatusInternalServerError, "encode the answer: "+err.Error())
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Write(append(b, '\n')) // a client that hung up has no one to tell
}

func (h Handler) query(ctx context.Context, q string, args ...any) ([]map[string]any, error) {
	return ledgerdb.Query(ctx, filepath.Join(h.Home, "ledger.db"), q, args...)
}

func (h Handler) rows(w http.ResponseWriter, r *http.Request, q string) {
	rows, err := h.query(r.Context(), q)
	if err != nil {
		fail(w, http.StatusServiceUnavailable, err.Error())
		return
	}
	reply(w, rows)
}

// Split is the head's evidence on one split: each task's score is the mean
// of its repeats, the split's mean is over tasks, and SE is the standard
// error of that mean (as anchor eval prints it).
type Split struct {
	Split   string   `json:"split"`
	Mean    float64  `json:"mean"`
	SE      float64  `json:"se"`
	Tasks   int      `json:"tasks"`
	Repeats int      `json:"repeats"` // the most repeats any task has
	Flaky   []string `json:"flaky"`   // tasks whose repeats disagree
}

// head serves what is frozen for the ledger (model, repeats, alpha, looks; null in
// a ledger from before they were kept) and the head's evidence per split.
func (h Handler) head(w http.ResponseWriter, r *http.Request) {
	meta, err := h.query(r.Context(), `SELECT key, value FROM meta WHERE key IN ('model', 'repeats', 'alpha', 'looks')`)
	if err != nil {
		fail(w, http.StatusServiceUnavailable, err.Error())
		return
	}
	out := map[string]any{"model": nil, "repeats": nil, "alpha": nil, "looks": nil, "gen": nil, "splits": []Split{}}
	for _, m := range meta {
		out[m["key"].(string)] = m["value"]
	}
	out["holdout_consults"], out["calibration"] = h.noiseFloor(r.Context())
	head, err := h.query(r.Context(), `SELECT g.gen, g.harness_hash FROM head JOIN generations g ON g.gen = head.gen`)
	if err != nil {
		fail(w, http.StatusServiceUnavailable, err.Error())
		return
	}
	if len(head) == 0 {
		reply(w, out)
		return
	}
	out["gen"] = head[0]["gen"]
	runs, err := h.query(r.Context(), `SELECT r.split, r.task_id, r."repeat", r.score FROM runs r
		WHERE r.harness_hash = ? AND r.split IN ('train', 'holdout') AND r.outcome != 'infra' AND r.created_at = (SELECT MAX(created_at) FROM runs
		  WHERE harness_hash = r.harness_hash AND task_id = r.task_id AND model = r.model AND "repeat" = r."repeat" AND outcome != 'infra')
		ORDER BY r.split DESC, r.task_id, r."repeat"`, head[0]["harness_hash"])
	if err != nil {
		fail(w, http.StatusServiceUnavailable, err.Error())
		return
	}
	out["splits"] = splits(runs)
	reply(w, out)
}

// noiseFloor is the latest ratchet calibrate result (the last line of
// calibration.jsonl, or nil) and how many decisions have consulted the
// holdout since the last sealed exam (anchor eval --split sealed; since the
// start when there was none): each is a look at the holdout, which wears it.
func (h Handler) noiseFloor(ctx context.Context) (consults, calibration any) {
	n, err := h.query(ctx, `SELECT COUNT(*) AS n FROM generations WHERE holdout_pre IS NOT NULL
		AND created_at > COALESCE((SELECT MAX(created_at) FROM evals WHERE split = 'sealed'), '')`)
	if err == nil && len(n) == 1 {
		consults = n[0]["n"]
	}
	if b, _, err := datafile.Read(filepath.Join(h.Home, "calibration.jsonl"), 16<<20); err == nil {
		lines := strings.Split(strings.TrimSpace(string(b)), "\n")
		json.Unmarshal([]byte(lines[len(lines)-1]), &calibration)
	}
	return consults, calibration
}

// splits summarises runs (ordered by split, task and repeat) per split.
func splits(runs []map[string]any) []Split {
	var out []Split
	var scores [][]float64 // per task of the current split, its repeats' scores
	var names []string
	flush := func() {
		if len(scores) == 0 {
			return
		}
		s := &out[len(out)-1]
		means := make([]float64, len(scores))
		for i, rs := range scores {
			for _, v := range rs {
				means[i] += v / float64(len(rs))
			}
			s.Mean += means[i] / float64(len(scores))
			s.Repeats = max(s.Repeats, len(rs))
			if slices.Min(rs) != slices.Max(rs) {
				s.Flaky = append(s.Flaky, names[i])
			}
		}
		ss := 0.0
		for _, m := range means {
			ss += (m - s.Mean) * (m - s.Mean)
		}
		n := float64(len(means))
		s.Tasks, s.SE = len(means), math.Sqrt(ss/max(n-1, 1)/n)
		scores, names = nil, nil
	}
	for _, r := range runs {
		split, task := fmt.Sprint(r["split"]), fmt.Sprint(r["task_id"])
		if len(out) == 0 || out[len(out)-1].Split != split {
			flush()
			out = append(out, Split{Split: split, Flaky: []string{}})
		}
		if len(names) == 0 || names[len(names)-1] != task {
			names, scores = append(names, task), append(scores, nil)
		}
		score, _ := r["score"].(float64)
		scores[len(scores)-1] = append(scores[len(scores)-1], score)
	}
	flush()
	return out
}

var hexName = regexp.MustCompile(`^[0-9a-z]{1,64}$`)

func (h Handler) diff(w http.ResponseWriter, hash string) {
	if !hexName.MatchString(hash) {
		fail(w, http.StatusBadRequest, "not a diff hash")
		return
	}
	b, _, err := datafile.Read(filepath.Join(h.Home, "diffs", hash+".diff"), diffLimit)
	if err != nil {
		fail(w, http.StatusNotFound, "no such diff: "+err.Error())
		return
	}
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	io.WriteString(w, show.Text(string(b), len(b))) // the candidate's diff: an agent wrote it
}

// trace serves a train run's trace as a JSON array of events. It reads only
// ANCHOR_HOME/traces/<id>.jsonl, and only when the ledger names that file.
func (h Handler) trace(w http.ResponseWriter, r *http.Request, id string) {
	if !hexName.MatchString(id) {
		fail(w, http.StatusNotFound, "no such run")
		return
	}
	rows, err := h.query(r.Context(), `SELECT task_id, split, "repeat", score, passed, total, outcome, trace_path, error FROM runs WHERE id = ?`, id)
	switch {
	case err != nil:
		fail(w, http.StatusServiceUnavailable, err.Error())
		return
	case len(rows) == 0:
		fail(w, http.StatusNotFound, "no such run")
		return
	case rows[0]["split"] != "train":
		fail(w, http.StatusForbidden, "only train traces are shown; holdout and sealed traces stay hidden")
		return
	}
	traces, _ := filepath.Abs(filepath.Join(h.Home, "traces"))
	file := filepath.Join(traces, id+".jsonl")
	named, _ := rows[0]["trace_path"].(string)
	if named == "" {
		fail(w, http.StatusNotFound, "this run kept no trace (the harness left none, or not a regular file)")
		return
	}
	if !sameFile(named, file, traces) {
		fail(w, http.StatusForbidden, "the ledger names a trace outside ANCHOR_HOME/traces; it is not shown")
		return
	}
	b, truncated, err := datafile.Read(file, traceLimit)
	if err != nil {
		fail(w, http.StatusNotFound, "the trace file is unreadable: "+err.Error())
		return
	}
	events := []json.RawMessage{}
	for _, line := range strings.Split(string(b), "\n") {
		if json.Valid([]byte(line)) && strings.TrimSpace(line) != "" {
			events = append(events, json.RawMessage(line))
		}
	}
	delete(rows[0], "trace_path")
	reply(w, map[string]any{"run": rows[0], "events": events, "count": strconv.Itoa(len(events)), "truncated": truncated, "limit": traceLimit})
}

// sameFile reports whether named, the path the ledger holds, is file: the
// same name in the same traces folder, however the home was spelled.
func sameFile(named, file, traces string) bool {
	if filepath.Clean(named) == file {
		return true
	}
	if filepath.Base(named) != filepath.Base(file) {
		return false
	}
	a, err := os.Stat(filepath.Dir(named))
	if err != nil {
		return false
	}
	b, err := os.Stat(traces)
	return err == nil && os.SameFile(a, b)
}
