package anchor

import (
	"bytes"
	"cmp"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"fmt"
	"net/http"
)

// replies is one run's view of the reply cache (common random numbers): a
// request the proxy would forward is answered from the record when an
// earlier run of the same model, options, task and repeat forwarded the
// same bytes, as the same occurrence of them within its run; the run is
// charged the recorded usage, as if the call were live. The harness sees
// the recorded reply byte for byte and no other sign of it; only the
// anchor's side record (exchanges, and the run row's counts) says which
// replies were recorded ones. A nil *replies forwards everything (the
// anchor's own probe, and tests of the proxy).
type replies struct {
	db           *sql.DB
	off, fresh   bool // off: neither served nor recorded; fresh: recorded, not served
	run, prefix  string
	harnesses    [2]string      // a reply is served only if a run of one of them was served it
	seen         map[string]int // occurrences of each request so far in this run
	sent, served int            // requests sent upstream; replies served from the record
	servedTokens int64
	only         bool // anchor replay: answer from the record only, never upstream
	diverged     int  // in a replay, the first request the record does not hold (1 is the first)
}

// replies returns the cache for run r; with the screen off it only counts.
// A forced run (--force) asks the model again and records what it answers.
func (a *Anchor) replies(r *Run, force bool) *replies {
	prefix := fmt.Sprintf("%s\x00%s\x00%d\x00", r.Model, r.TaskHash, r.Repeat)
	return &replies{db: a.db, off: a.Screen == "off", fresh: force, run: r.ID, prefix: prefix,
		seen: map[string]int{}, harnesses: [2]string{r.HarnessHash, cmp.Or(a.incumbent, r.HarnessHash)}}
}

// recorder is a ResponseWriter that keeps the status and the bytes written.
type recorder struct {
	http.ResponseWriter
	status int
	body   bytes.Buffer
}

func (w *recorder) WriteHeader(s int) { w.status = s; w.ResponseWriter.WriteHeader(s) }

func (w *recorder) Write(b []byte) (int, error) { w.body.Write(b); return w.ResponseWriter.Write(b) }

func (w *recorder) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// exchange answers fwd, the request as it would be forwarded, from the
// record, or through live, which forwards it and relays the reply, and says
// whether it is the draw to keep (forward); a kept 200 reply is recorded. It returns the
// tokens to charge and live's failure.
func (c *replies) exchange(w http.ResponseWriter, fwd []byte,
	live func(http.ResponseWriter) (int64, int64, string, bool)) (in, out int64, failure string) {
	if c == nil {
		in, out, failure, _ = live(w)
		return in, out, failure
	}
	if c.only {
		live = c.refuse
	}
	sum := sha256.Sum256(append([]byte(c.prefix), fwd...))
	key := hex.EncodeToString(sum[:])
	n, kind, body, err := c.seen[key], "", []byte(nil), sql.ErrNoRows
	c.seen[key]++
	if !c.off && !c.fresh {
		// Only a reply a run of this harness or of its incumbent was served: one a
		// rejected candidate recorded (keeping the draws it liked, hanging up
		// on the others) never reaches another harness.
		err = c.db.QueryRow(`SELECT content_type, body, tokens_in, tokens_out FROM replies
			WHERE key = ?1 AND occurrence = ?2 AND EXISTS (SELECT 1 FROM exchanges x JOIN runs r ON r.id = x.run_id
			WHERE x.key = ?1 AND x.occurrence = ?2 AND r.harness_hash IN (?3, ?4))`,
			key, n, c.harnesses[0], c.harnesses[1]).Scan(&kind, &body, &in, &out)
	}
	if err == nil {
		c.served, c.servedTokens = c.served+1, c.servedTokens+in+out
		w.Header().Set("Content-Type", kind)
		for line := range bytes.Lines(body) { // relayed as forward relays: an SSE event at a time
			if w.Write(line); string(line) == "\n" {
				http.NewResponseController(w).Flush()
			}
		}
	} else {
		c.sent++
		rec, kept := &recorder{ResponseWriter: w}, false
		if in, out, failure, kept = live(rec); kept && rec.status == http.StatusOK && !c.off {
			c.db.Exec(recordReply[c.fresh]+` INTO replies(key, occurrence, content_type, body, tokens_in, tokens_out,
				run_id, created_at) VALUES(?, ?, ?, ?, ?, ?, ?, ?)`,
				key, n, rec.Header().Get("Content-Type"), rec.body.Bytes(), in, out, c.run, now())
		}
	}
	put(c.db, "exchanges", "run_id, seq, key, occurrence, cached", c.run, c.sent+c.served, key, n, err == nil)
	return in, out, failure
}

// recordReply is how a run records a reply, by whether it was forced. Only a
// forced run (--force: the server was wrong) replaces a recorded reply;
// another harness's run that sends the same bytes (an eval, a calibrate
// variant) must not change the draw the incumbent was served.
var recordReply = map[bool]string{false: "INSERT OR IGNORE", true: "INSERT OR REPLACE"}

// refuse stands for the upstream in a replay: a request the record does not
// hold is where the harness first sent something else, and goes nowhere.
func (c *replies) refuse(w http.ResponseWriter) (int64, int64, string, bool) {
	c.sent-- // counted as sent by exchange, but nothing went upstream
	c.diverged = cmp.Or(c.diverged, c.sent+c.served+1)
	refuse(w, http.StatusConflict, "replay_diverged", "anchor replay: the record holds no reply to this request")
	return 0, 0, "", false
}

// counts fills in what r's proxy sent upstream and served from the record.
func (c *replies) counts(r *Run) {
	r.Requests, r.CachedReplies, r.CachedTokens = c.sent, c.served, c.servedTokens
}
