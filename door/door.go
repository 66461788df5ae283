// Package door is what the front doors share: one request of a person, run
// by the head harness on their own project with their model, and saved as a
// request record before completion is reported (docs/ARCHITECTURE.md, "The
// front doors"). `ratchet run`, `ratchet serve` and `ratchet mcp` are thin
// layers over Ask.
//
// The doors live under this folder: serve (HTTP), mcpdoor (MCP), ui (the
// dashboard), editors (the editors' MCP configuration), and doortest, what
// their tests share. Package door imports the anchor and the internal
// libraries; no door imports a program (evolve, plan, fleet, tasks) or a
// command (docs/ARCHITECTURE.md, "Layout").
package door

import (
	"cmp"
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"ratchet/anchor"
	"ratchet/internal/harnesses"
	"ratchet/internal/show"

	_ "modernc.org/sqlite"
)

// Config is where the door keeps its records and how it runs the harness.
type Config struct {
	Harness    string        // a harness folder the user named (--harness); "" for the ledger's head or the baseline
	Ledger     string        // the anchor home whose head snapshot runs when Harness is ""; "" for the built-in baseline
	Home       string        // RATCHET_HOME: sessions.db, builds/, traces/
	Env        []string      // the environment with the MODEL_* settings
	Sandbox    bool          // run the agent under bubblewrap, as the anchor does
	NumCtx     int           // context size stated to the model (Ollama's num_ctx); 0 leaves MODEL_OPTIONS alone
	MaxRequest int           // bytes of request text accepted
	Timeout    time.Duration // the whole agent run
	Test       string        // the operator's test command; detected per project when empty
	Roots      []string      // folders a request's project must lie in (serve, mcp); nil lets any project through (run)
	Budget     int64         // model tokens one request may spend, enforced at the proxy; 0 means DefaultBudget
}

// DefaultBudget is a request's token budget when the operator names none,
// the same as the anchor's ANCHOR_BUDGET default.
const DefaultBudget = 100000

// Request is one request of a person.
type Request struct {
	Project string `json:"project"`
	Text    string `json:"request"`
	Session string `json:"session,omitempty"`
}

// Call is one tool call of the run with the observation it produced.
type Call struct {
	ID          string `json:"id"`
	Name        string `json:"name"`
	Args        string `json:"args"`
	Observation string `json:"observation"`
	Rejected    bool   `json:"rejected,omitempty"`
	Truncated   bool   `json:"truncated,omitempty"`
}

// Record is a request record: the request, its calls and observations, and
// its outcome.
type Record struct {
	ID          string   `json:"id"`
	Session     string   `json:"session"`
	Project     string   `json:"project"`
	Request     string   `json:"request"`
	Test        string   `json:"test"`
	Outcome     string   `json:"outcome"` // the harness's stop reason, or interrupted / error
	Answer      string   `json:"answer"`
	Steps       int      `json:"steps"`
	Tokens      int      `json:"tokens"`     // model tokens, in and out
	TokensIn    int      `json:"tokens_in"`  // of which the prompts
	TokensOut   int      `json:"tokens_out"` // of which the replies
	Calls       []Call   `json:"calls"`
	Changed     []string `json:"changed"`
	TestsBefore string   `json:"tests_before"`
	TestsAfter  string   `json:"tests_after"`
	TracePath   string   `json:"trace_path"`
	Withheld    []string `json:"withheld,omitempty"` // --sandbox: changed paths not written back (dot-paths, links)
	Warnings    []string `json:"warnings,omitempty"` // what the operator should know: a context Ollama filled
	Harness     string   `json:"harness"`            // which harness ran: "head of /x/.anchor (gen 7, 3f2a…)", "built-in baseline (…)", "folder DIR (…)"
	HarnessHash string   `json:"harness_hash"`       // anchor.HashOf of its files
	Started     string   `json:"started"`
	Finished    string   `json:"finished"`
}

// ModelDown says the model server never answered the request: the run
// ended on a model error, or on an error before a single token. Every door
// says so as a failure of the machine (ratchet run exits 3, serve answers
// 502, the MCP tool result is an error), never as the agent's answer.
func (r Record) ModelDown() bool {
	return r.Outcome == "model_error" || (r.Outcome == "error" || r.Outcome == "no result") && r.Tokens == 0
}

// ExitStatus is the exit status ratchet run gives a finished request, and
// what serve's /v1/ask reports: 3 when the model server never answered, 1
// when the run ended otherwise than completed or the tests still fail, 0
// when it did what was asked.
func (r Record) ExitStatus() int {
	switch {
	case r.ModelDown():
		return 3
	case r.Outcome == "unbuildable": // bad input: nothing was done
		return 2
	case r.Outcome != "completed" || strings.HasPrefix(r.TestsAfter, "fail"):
		return 1
	}
	return 0
}

// Door runs requests one at a time (one user, one session at a time).
type Door struct {
	cfg        Config
	db         *sql.DB    // nil until the first request creates the records (ensure)
	dbMu       sync.Mutex // guards db
	mu         sync.Mutex
	own        []string // the door's own folders (home, ledger, harness), real paths: never a project
	ollamaOnce sync.Once
	isOllama   bool // the model server answers as Ollama (ollama)
}

// Open opens the records in cfg.Home.
func Open(cfg Config) (*Door, error) {
	if cfg.MaxRequest == 0 {
		cfg.MaxRequest = 64 << 10
	}
	if cfg.Timeout == 0 {
		cfg.Timeout = 30 * time.Minute
	}
	if cfg.Budget <= 0 {
		cfg.Budget = DefaultBudget
	}
	if cfg.Roots != nil {
		roots, err := resolveRoots(cfg.Roots)
		if err != nil {
			return nil, err
		}
		cfg.Roots = roots
	}
	// Opening writes nothing: the first request creates the records
	// (ensure), so a door that only reads leaves no folder behind.
	var db *sql.DB
	if _, err := os.Stat(filepath.Join(cfg.Home, "sessions.db")); err == nil {
		if db, err = createRecords(cfg.Home); err != nil {
			return nil, err
		}
	}
	own := []string{realPath(cfg.Home)}
	for _, p := range []string{cfg.Ledger, cfg.Harness} {
		if p != "" {
			own = append(own, realPath(p))
		}
	}
	return &Door{cfg: cfg, db: db, own: own}, nil
}

// createRecords creates the request records in home, or opens them.
func createRecords(home string) (*sql.DB, error) {
	// The records hold the user's source and what the agent read: only the
	// user may read them.
	for _, d := range []string{"", "builds", "traces", "tmp"} {
		dir := filepath.Join(home, d)
		if err := errors.Join(os.MkdirAll(dir, 0o700), os.Chmod(dir, 0o700)); err != nil {
			return nil, fmt.Errorf("create %s: %w; set RATCHET_HOME to a writable folder", home, err)
		}
	}
	dbPath := filepath.Join(home, "sessions.db")
	f, err := os.OpenFile(dbPath, os.O_RDWR|os.O_CREATE, 0o600)
	if err == nil {
		err = errors.Join(f.Chmod(0o600), f.Close())
	}
	if err == nil {
		for _, side := range []string{"-wal", "-shm"} {
			os.Chmod(dbPath+side, 0o600) // SQLite creates them with the database's mode
		}
	}
	var db *sql.DB
	if err == nil {
		db, err = sql.Open("sqlite", dbPath+"?_pragma=journal_mode(WAL)&_pragma=busy_timeout(10000)")
	}
	if err == nil {
		db.SetMaxOpenConns(1)
		_, err = db.Exec(`CREATE TABLE IF NOT EXISTS requests(id TEXT PRIMARY KEY, session TEXT NOT NULL, seq INTEGER NOT NULL,
			project TEXT, request TEXT, outcome TEXT, record TEXT NOT NULL, finished TEXT);
			CREATE INDEX IF NOT EXISTS requests_session ON requests(session, seq);`)
	}
	if err != nil {
		return nil, fmt.Errorf("open the request records: %w", err)
	}
	return db, nil
}

// ensure returns the records, creating them on the first request.
func (d *Door) ensure() (*sql.DB, error) {
	d.dbMu.Lock()
	defer d.dbMu.Unlock()
	if d.db != nil {
		return d.db, nil
	}
	db, err := createRecords(d.cfg.Home)
	d.db = db
	return db, err
}

// records returns the records, nil while no request has created them.
func (d *Door) records() *sql.DB {
	d.dbMu.Lock()
	defer d.dbMu.Unlock()
	return d.db
}

// OpenRecords opens the request records in home read-only, for reading
// them: it creates and changes nothing. With no records yet there are none.
func OpenRecords(home string) (*Door, error) {
	dbPath := filepath.Join(home, "sessions.db")
	if _, err := os.Stat(dbPath); errors.Is(err, fs.ErrNotExist) {
		return &Door{}, nil
	}
	db, err := sql.Open("sqlite", "file:"+dbPath+"?mode=ro&_pragma=busy_timeout(10000)")
	if err == nil {
		err = db.Ping()
	}
	if err != nil {
		return nil, fmt.Errorf("open the request records in %s: %w", home, err)
	}
	return &Door{db: db}, nil
}

// DefaultProject is the project of a request that names none: the one
// folder the door may work on, when there is only one (one --project, one
// --root, or where ratchet mcp started); "" otherwise.
func (d *Door) DefaultProject() string {
	if len(d.cfg.Roots) == 1 {
		return d.cfg.Roots[0]
	}
	return ""
}

// Close closes the records.
func (d *Door) Close() error {
	if db := d.records(); db != nil {
		return db.Close()
	}
	return nil
}

// Show returns the records of a session, or the one record with that id
// (the id an interrupt or a summary names).
func (d *Door) Show(id string) ([]Record, error) {
	recs, err := d.Records(id)
	db := d.records()
	if err != nil || len(recs) > 0 || db == nil {
		return recs, err
	}
	var s string
	var r Record
	err = db.QueryRow(`SELECT record FROM requests WHERE id = ?`, id).Scan(&s)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err != nil || json.Unmarshal([]byte(s), &r) != nil {
		return nil, fmt.Errorf("read a request record: %v", err)
	}
	return []Record{r}, nil
}

// Ledger is the anchor home whose head the door runs, "" when it runs a
// folder or the built-in baseline.
func (d *Door) Ledger() string { return d.cfg.Ledger }

func getenv(env []string, k string) string {
	for i := len(env) - 1; i >= 0; i-- {
		if v, ok := strings.CutPrefix(env[i], k+"="); ok {
			return v
		}
	}
	return ""
}

// validate checks a request before anything runs and opens its project:
// what runs afterwards goes through that handle, never the path again.
func (d *Door) validate(r *Request) (*projectDir, error) {
	if err := d.check(r); err != nil {
		return nil, err
	}
	p, err := openProject(r.Project)
	if err != nil {
		return nil, refuse(ErrInvalid, "unknown project %q: give the path of a folder that exists", r.Project)
	}
	if err := d.recheck(p); err != nil {
		p.Close() // a handle only read through; the refusal is the error to report
		return nil, err
	}
	return p, nil
}

// recheck checks where the held project is now against the roots and the
// door's own folders.
func (d *Door) recheck(p *projectDir) error {
	real, err := p.Real()
	if err != nil {
		return refuse(ErrInvalid, "the project folder is gone: %v", err)
	}
	if !d.allowed(real) || d.owned(real) {
		return refuse(ErrForbidden, "the project moved to %s, where this door may not work; nothing was written back", real)
	}
	return nil
}

func (d *Door) check(r *Request) error {
	r.Project = cmp.Or(r.Project, d.DefaultProject())
	project, err := d.project(r.Project)
	switch {
	case err != nil:
		return err
	case strings.TrimSpace(r.Text) == "":
		return refuse(ErrInvalid, "the request is empty; say what the agent should do")
	case len(r.Text) > d.cfg.MaxRequest:
		return refuse(ErrTooLarge, "the request is %d bytes; the limit is %d: shorten it or point at files instead", len(r.Text), d.cfg.MaxRequest)
	case getenv(d.cfg.Env, "MODEL_NAME") == "":
		return refuse(ErrNoModel, "no model configured: set MODEL_URL and MODEL_NAME (see README.md)")
	}
	db, err := d.ensure()
	if err != nil {
		return err
	}
	r.Project = project
	if r.Session != "" {
		// A session carries earlier observations into the prompt: only a
		// session of this very project may be continued (unknown and foreign
		// get one answer, so ids cannot be probed).
		var mine, others int
		err := db.QueryRow(`SELECT COALESCE(SUM(project = ?), 0), COALESCE(SUM(project != ?), 0) FROM requests WHERE session = ?`,
			r.Project, r.Project, r.Session).Scan(&mine, &others)
		if err != nil {
			return fmt.Errorf("read the sessions: %w", err)
		}
		if mine == 0 || others > 0 {
			return refuse(ErrInvalid, "unknown session %q for this project; ratchet sessions lists them", r.Session)
		}
	}
	return nil
}

// Ask runs one request and saves its record before returning it. Progress
// lines go to progress as the agent works. A request cut short (ctx) is
// saved as interrupted: a record is whole or absent, never half written.
func (d *Door) Ask(ctx context.Context, r Request, progress io.Writer) (Record, error) {
	if progress == nil {
		progress = io.Discard
	}
	progress = &syncWriter{w: progress}
	proj, err := d.validate(&r)
	if err != nil {
		return Record{}, err
	}
	defer proj.Close()
	d.mu.Lock()
	defer d.mu.Unlock()
	prior, err := d.Records(r.Session)
	if err != nil {
		return Record{}, err
	}
	rec := Record{ID: newID(), Session: cmp.Or(r.Session, newID()), Project: r.Project, Request: r.Text,
		Test: cmp.Or(d.cfg.Test, DetectTest(proj.Path())), Started: now(), Calls: []Call{}, Changed: []string{}}
	h, err := harnesses.Locate(d.cfg.Harness, d.cfg.Ledger)
	if err != nil {
		return Record{}, err
	}
	bin, err := h.Build(d.cfg.Home, d.cfg.Sandbox)
	if err != nil {
		return Record{}, err
	}
	rec.Harness, rec.HarnessHash = h.String(), h.Hash
	fmt.Fprintf(progress, "harness: %s\n", show.Line(rec.Harness, 300))
	fmt.Fprintf(progress, "test command: %s\n", show.Line(d.testSource(rec.Test), 2000))
	if why := d.unreachable(ctx); why != "" && ctx.Err() == nil { // before minutes of tests: it cannot be served
		rec.Outcome, rec.Answer, rec.Finished = "model_error", why, now()
		fmt.Fprintf(progress, "%s\n", why)
		if err := d.save(rec); err != nil {
			return rec, fmt.Errorf("the model server is down and the record could not be saved: %w", err)
		}
		return rec, nil
	}
	before, _ := anchor.ReadTree(proj.Path(), false)
	rec.TestsBefore = d.tests(ctx, proj.Path(), rec.Test)
	fmt.Fprintf(progress, "tests before: %s\n", show.Line(rec.TestsBefore, 2000))
	if d.cfg.Sandbox && strings.Contains(rec.TestsBefore, noNetwork) && ctx.Err() == nil {
		// The agent's tests could not build either: no token is spent on it.
		rec.Outcome, rec.Finished = "unbuildable", now()
		rec.Answer = "not sent to the model: the tests cannot build in the sandbox, which has no network; " +
			"vendor the modules (go mod vendor) or run without --sandbox"
		if err := d.save(rec); err != nil {
			return rec, fmt.Errorf("the tests cannot build in the sandbox and the record could not be saved: %w", err)
		}
		return rec, nil
	}
	runErr := d.run(ctx, bin, proj, &rec, Context(prior, r.Text, d.budget()), progress)
	after, _ := anchor.ReadTree(proj.Path(), false)
	rec.Changed = changed(before, after)
	if ctx.Err() == nil && !rec.ModelDown() { // nothing changed if the model never answered
		rec.TestsAfter = d.tests(ctx, proj.Path(), rec.Test)
		fmt.Fprintf(progress, "tests after: %s\n", show.Line(rec.TestsAfter, 2000))
	}
	switch {
	case ctx.Err() != nil:
		rec.Outcome = "interrupted"
	case runErr != nil:
		rec.Outcome, rec.Answer = "error", runErr.Error()
	}
	rec.Finished = now()
	if err := d.save(rec); err != nil {
		return rec, fmt.Errorf("the request ran but its record could not be saved (%w); its effects on %s remain", err, r.Project)
	}
	if ctx.Err() != nil {
		return rec, fmt.Errorf("interrupted; the record is saved as %s and any edits made so far remain", rec.ID)
	}
	return rec, nil
}

// testSource names the test command and where it came from, for the first
// lines of every request.
func (d *Door) testSource(test string) string {
	switch {
	case d.cfg.Test != "":
		return test + " (the operator's --test)"
	case test == "":
		return "none detected (no go.mod, pytest files, Cargo.toml, pom.xml, build.gradle, npm test, make test " +
			"or CMakeLists.txt); the operator can set --test CMD"
	}
	return test + " (detected)"
}

// budget is the characters of earlier requests a new request may carry:
// about half the stated context, at ~3 characters a token.
func (d *Door) budget() int { return max(d.cfg.NumCtx, 8192) * 3 / 2 }

func (d *Door) save(rec Record) error {
	b, _ := json.Marshal(rec)
	_, err := d.records().ExecContext(context.WithoutCancel(context.Background()), `INSERT INTO requests(id, session, seq, project, request, outcome, record, finished)
		VALUES(?, ?, (SELECT COALESCE(MAX(seq), 0) + 1 FROM requests WHERE session = ?), ?, ?, ?, ?, ?)`,
		rec.ID, rec.Session, rec.Session, rec.Project, rec.Request, rec.Outcome, string(b), rec.Finished)
	return err
}

// Records returns the records of a session, oldest first.
func (d *Door) Records(session string) ([]Record, error) {
	db := d.records()
	if db == nil {
		return nil, nil
	}
	rows, err := db.Query(`SELECT record FROM requests WHERE session = ? ORDER BY seq`, session)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []Record
	for rows.Next() {
		var s string
		var r Record
		if err := rows.Scan(&s); err != nil || json.Unmarshal([]byte(s), &r) != nil {
			return nil, fmt.Errorf("read a request record: %v", err)
		}
		out = append(out, r)
	}
	return out, rows.Err()
}

// Session is one line of `ratchet sessions`.
type Session struct {
	ID       string `json:"id"`
	Project  string `json:"project"`
	Last     string `json:"last"`    // when its latest request finished
	Outcome  string `json:"outcome"` // its latest request's
	Requests int    `json:"requests"`
}

// Sessions lists the sessions, most recent first.
func (d *Door) Sessions() ([]Session, error) {
	db := d.records()
	if db == nil {
		return []Session{}, nil
	}
	rows, err := db.Query(`SELECT session, project, COUNT(*), MAX(finished),
		(SELECT outcome FROM requests r2 WHERE r2.session = r.session ORDER BY seq DESC LIMIT 1)
		FROM requests r GROUP BY session ORDER BY MAX(finished) DESC`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []Session{}
	for rows.Next() {
		var s Session
		if err := rows.Scan(&s.ID, &s.Project, &s.Requests, &s.Last, &s.Outcome); err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, rows.Err()
}

func changed(before, after map[string][]byte) []string {
	out := []string{}
	for name, b := range after {
		if old, ok := before[name]; !ok || string(old) != string(b) {
			out = append(out, name)
		}
	}
	for name := range before {
		if _, ok := after[name]; !ok {
			out = append(out, name)
		}
	}
	slices.Sort(out)
	return out
}

func now() string { return time.Now().UTC().Format(time.RFC3339Nano) }

func newID() string { return strings.ToLower(rand.Text()[:16]) }
