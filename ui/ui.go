// Package ui is the dashboard: a read-only web page over the anchor's ledger
// (ANCHOR_HOME). It shows the generations with their train and holdout scores
// as a chart, each generation's decision, reason, hypothesis and diff, a
// per-task pass/fail matrix across generations, and a step-by-step trace
// viewer. The page ships inside the binary; there is no build step.
package ui

import (
	"context"
	"embed"
	"encoding/json"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"

	"ratchet/internal/ledgerdb"
)

//go:embed static
var static embed.FS

// Handler serves the dashboard for the ledger in Home.
type Handler struct{ Home string }

func (h Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	switch p := r.URL.Path; {
	case p == "/api/generations":
		h.rows(w, r, `SELECT gen, parent_gen, harness_hash, diff_hash, component, hypothesis, trace_ids, decision, reason,
			train_pre, train_post, holdout_pre, holdout_post, tokens, created_at, gen = (SELECT gen FROM head) AS head FROM generations ORDER BY gen`)
	case p == "/api/matrix":
		// The latest run of each task for each generation's harness. Only
		// train runs link to traces: holdout and sealed traces stay hidden.
		h.rows(w, r, `SELECT g.gen, r.task_id, r.split, r.score, r.passed, r.total, r.error,
			CASE WHEN r.split = 'train' THEN r.id ELSE '' END AS run_id
			FROM generations g JOIN runs r ON r.harness_hash = g.harness_hash
			WHERE r.split IN ('train', 'holdout') AND r.created_at = (SELECT MAX(created_at) FROM runs
			  WHERE harness_hash = r.harness_hash AND task_id = r.task_id AND model = r.model)
			ORDER BY r.split DESC, r.task_id, g.gen`)
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
	json.NewEncoder(w).Encode(map[string]string{"error": msg})
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
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(rows)
}

var hexName = regexp.MustCompile(`^[0-9a-z]{1,64}$`)

func (h Handler) diff(w http.ResponseWriter, hash string) {
	if !hexName.MatchString(hash) {
		fail(w, http.StatusBadRequest, "not a diff hash")
		return
	}
	b, err := os.ReadFile(filepath.Join(h.Home, "diffs", hash+".diff"))
	if err != nil {
		fail(w, http.StatusNotFound, "no such diff")
		return
	}
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Write(b)
}

// trace serves a train run's trace as a JSON array of events.
func (h Handler) trace(w http.ResponseWriter, r *http.Request, id string) {
	rows, err := h.query(r.Context(), `SELECT task_id, split, score, passed, total, trace_path, error FROM runs WHERE id = ?`, id)
	switch {
	case err != nil:
		fail(w, http.StatusServiceUnavailable, err.Error())
		return
	case len(rows) == 0 || !hexName.MatchString(id):
		fail(w, http.StatusNotFound, "no such run")
		return
	case rows[0]["split"] != "train":
		fail(w, http.StatusForbidden, "only train traces are shown; holdout and sealed traces stay hidden")
		return
	}
	b, err := os.ReadFile(filepath.Join(h.Home, "traces", id+".jsonl"))
	if err != nil {
		fail(w, http.StatusNotFound, "the trace file is missing")
		return
	}
	events := []json.RawMessage{}
	for _, line := range strings.Split(string(b), "\n") {
		if json.Valid([]byte(line)) && strings.TrimSpace(line) != "" {
			events = append(events, json.RawMessage(line))
		}
	}
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(map[string]any{"run": rows[0], "events": events, "count": strconv.Itoa(len(events))})
}
