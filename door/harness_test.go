package door_test

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"ratchet/door"
	"ratchet/door/doortest"
)

// The record and the progress say which harness ran; with nothing named it
// is the built-in baseline, and a named ledger that is missing stops the
// request before anything runs rather than falling back.
func TestRecordSaysWhichHarnessRan(t *testing.T) {
	t.Parallel()
	d, _ := doortest.Open(t, doortest.Fixer, false, func(c *door.Config) { c.Harness = "" })
	var progress bytes.Buffer
	rec, err := d.Ask(context.Background(), door.Request{Project: doortest.Project(t), Text: "Double is wrong"}, &progress)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(rec.Harness, "built-in baseline (") || len(rec.HarnessHash) != 64 || !strings.Contains(rec.Harness, rec.HarnessHash[:12]) {
		t.Errorf("record harness = %q (%q)", rec.Harness, rec.HarnessHash)
	}
	if !strings.HasPrefix(progress.String(), "harness: "+rec.Harness+"\n") {
		t.Errorf("progress does not open with the harness:\n%s", progress.String())
	}
	saved, err := d.Records(rec.Session)
	if err != nil || len(saved) != 1 || saved[0].Harness != rec.Harness || saved[0].HarnessHash != rec.HarnessHash {
		t.Errorf("saved record = %+v (%v)", saved, err)
	}

	d, srv := doortest.Open(t, doortest.Fixer, false, func(c *door.Config) { c.Harness, c.Ledger = "", "/no/such/ledger" })
	project := doortest.Project(t)
	if _, err := d.Ask(context.Background(), door.Request{Project: project, Text: "Double is wrong"}, nil); err == nil || !strings.Contains(err.Error(), "no ledger at /no/such/ledger") {
		t.Errorf("a missing ledger: %v", err)
	}
	if n := len(srv.Requests()); n != 0 {
		t.Errorf("the model got %d requests from a door whose ledger is missing", n)
	}
}
