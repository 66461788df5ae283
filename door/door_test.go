package door_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	. "ratchet/door"
	"ratchet/door/doortest"
	"ratchet/harness/fakemodel"
)

func TestAskFixesAndRecords(t *testing.T) {
	for _, sandbox := range []bool{false, true} {
		t.Run(map[bool]string{false: "direct", true: "sandbox"}[sandbox], func(t *testing.T) {
			d, srv := doortest.Open(t, doortest.Fixer, sandbox)
			proj := doortest.Project(t)
			var progress bytes.Buffer
			rec, err := d.Ask(context.Background(), Request{Project: proj, Text: "Double is wrong; fix it."}, &progress)
			if err != nil {
				t.Fatal(err)
			}
			if b, _ := os.ReadFile(filepath.Join(proj, "m.go")); string(b) != doortest.Fixed {
				t.Fatalf("the project was not fixed:\n%s", b)
			}
			if rec.Outcome != "completed" || rec.Test != "go test ./..." || !strings.HasPrefix(rec.TestsBefore, "fail") || rec.TestsAfter != "pass" ||
				len(rec.Changed) != 1 || rec.Changed[0] != "m.go" || len(rec.Calls) != 1 || !strings.HasPrefix(rec.Calls[0].Observation, "wrote ") ||
				!strings.Contains(rec.Answer, "Fixed Double") {
				t.Errorf("record = %+v", rec)
			}
			if !strings.Contains(progress.String(), "write_file") || !strings.Contains(progress.String(), "tests after: pass") {
				t.Errorf("progress:\n%s", progress.String())
			}
			saved, err := d.Records(rec.Session)
			if err != nil || len(saved) != 1 || saved[0].ID != rec.ID {
				t.Fatalf("saved = %+v, %v", saved, err)
			}
			req := srv.Requests()[0]
			if !strings.Contains(string(req.Body), `"num_ctx":8192`) {
				t.Errorf("the context size was not stated: %s", req.Body)
			}
			if sandbox && strings.Contains(string(req.Body), "SECRET") {
				t.Error("credential in the body")
			}
		})
	}
}

func TestSessionContinues(t *testing.T) {
	d, srv := doortest.Open(t, doortest.Fixer, false)
	proj := doortest.Project(t)
	first, err := d.Ask(context.Background(), Request{Project: proj, Text: "Double is wrong; fix it."}, nil)
	if err != nil {
		t.Fatal(err)
	}
	second, err := d.Ask(context.Background(), Request{Project: proj, Text: "Now add a comment.", Session: first.Session}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if second.Session != first.Session {
		t.Fatal("the follow-up started a new session")
	}
	reqs := srv.Requests()
	last := string(reqs[len(reqs)-1].Body)
	if !strings.Contains(last, "Double is wrong; fix it.") || !strings.Contains(last, "Now add a comment.") || !strings.Contains(last, "call write_file") {
		t.Errorf("the follow-up does not carry the earlier request:\n%s", last)
	}
	ss, err := d.Sessions()
	if err != nil || len(ss) != 1 || ss[0].Requests != 2 {
		t.Errorf("sessions = %+v, %v", ss, err)
	}
}

func TestBadRequests(t *testing.T) {
	d, _ := doortest.Open(t, doortest.Fixer, false)
	proj := doortest.Project(t)
	tests := []struct {
		req  Request
		want string
	}{
		{Request{Project: "/no/such/dir", Text: "x"}, "unknown project"},
		{Request{Project: proj, Text: "  "}, "empty"},
		{Request{Project: proj, Text: strings.Repeat("x", 70000)}, "limit is"},
		{Request{Project: proj, Text: "x", Session: "nope"}, "unknown session"},
	}
	for _, tt := range tests {
		if _, err := d.Ask(context.Background(), tt.req, nil); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%+v: %v, want %q", tt.req.Session+tt.req.Project, err, tt.want)
		}
	}
	nomodel, err := Open(Config{Harness: "../harness", Home: t.TempDir(), Env: []string{"PATH=" + os.Getenv("PATH")}})
	if err != nil {
		t.Fatal(err)
	}
	defer nomodel.Close()
	if _, err := nomodel.Ask(context.Background(), Request{Project: proj, Text: "x"}, nil); err == nil || !strings.Contains(err.Error(), "no model configured") {
		t.Errorf("no model: %v", err)
	}
	if ss, _ := d.Sessions(); len(ss) != 0 {
		t.Errorf("bad requests left records: %+v", ss)
	}
}

func TestInterruptedRequestIsSavedWhole(t *testing.T) {
	slow := func(r fakemodel.Request) fakemodel.Step {
		time.Sleep(3 * time.Second)
		return fakemodel.Step{Text: "late"}
	}
	d, _ := doortest.Open(t, slow, false)
	ctx, cancel := context.WithTimeout(context.Background(), 1500*time.Millisecond)
	defer cancel()
	rec, err := d.Ask(ctx, Request{Project: doortest.Project(t), Text: "fix it", Test: "true"}, nil)
	if err == nil || !strings.Contains(err.Error(), "interrupted") {
		t.Fatalf("err = %v", err)
	}
	saved, _ := d.Records(rec.Session)
	if len(saved) != 1 || saved[0].Outcome != "interrupted" || saved[0].Finished == "" {
		t.Errorf("saved = %+v", saved)
	}
}

func TestContextKeepsOpeningRecentAndCallsWithObservations(t *testing.T) {
	var prior []Record
	for i := range 12 {
		prior = append(prior, Record{Request: "request number " + string(rune('A'+i)), Outcome: "completed",
			Calls: []Call{{Name: "read_file", Args: `{"path":"a.go"}`, Observation: strings.Repeat("x", 500)}}})
	}
	got := Context(prior, "the current one", 2500)
	if !strings.Contains(got, "[request 1] request number A") || !strings.Contains(got, "[request 12] request number L") {
		t.Errorf("opening or latest request missing:\n%s", got)
	}
	if !strings.Contains(got, "[Summary of ") || !strings.Contains(got, "request 5: \"request number E\"") {
		t.Errorf("no labelled summary of the middle:\n%s", got)
	}
	if !strings.HasSuffix(got, "Current request:\nthe current one") {
		t.Error("the current request is not last and whole")
	}
	if strings.Count(got, "  call ") != strings.Count(got, "    -> ") {
		t.Error("a call lost its observation")
	}
	if Context(nil, "alone", 100) != "alone" {
		t.Error("a first request is sent as it is")
	}
}

func TestDetectTest(t *testing.T) {
	for files, want := range map[string]string{"go.mod": "go test ./...", "pytest.ini": "pytest -q", "package.json": "npm test", "Makefile": "make test", "README": ""} {
		dir := t.TempDir()
		body := map[string]string{"package.json": `{"scripts":{"test":"jest"}}`, "Makefile": "build:\n\ttrue\ntest:\n\ttrue\n"}[files]
		os.WriteFile(filepath.Join(dir, files), []byte(body), 0o644)
		if got := DetectTest(dir); got != want {
			t.Errorf("%s: %q, want %q", files, got, want)
		}
	}
}

func TestWriteBackStaysInsideTheProject(t *testing.T) {
	proj, outside := t.TempDir(), t.TempDir()
	os.Symlink(outside, filepath.Join(proj, "link"))
	os.WriteFile(filepath.Join(proj, "gone.txt"), []byte("x"), 0o644)
	before := map[string][]byte{"gone.txt": []byte("x")}
	after := map[string][]byte{"link/evil.txt": []byte("pwned"), "sub/new.go": []byte("package sub\n")}
	err := WriteBackForTest(proj, before, after)
	if _, serr := os.Stat(filepath.Join(outside, "evil.txt")); serr == nil {
		t.Fatal("a write went through the project's symlink")
	}
	if err == nil {
		t.Error("the refused write was not reported")
	}
	if b, _ := os.ReadFile(filepath.Join(proj, "sub", "new.go")); string(b) != "package sub\n" {
		t.Error("a normal new file was not written back")
	}
	if _, serr := os.Stat(filepath.Join(proj, "gone.txt")); serr == nil {
		t.Error("a file the agent deleted is still there")
	}
}
