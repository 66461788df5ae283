package door_test

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	. "ratchet/door"
	"ratchet/door/doortest"
	"ratchet/harness/fakemodel"
)

func TestAskFixesAndRecords(t *testing.T) {
	t.Parallel()
	for _, sandbox := range []bool{false, true} {
		t.Run(map[bool]string{false: "direct", true: "sandbox"}[sandbox], func(t *testing.T) {
			t.Parallel()
			if sandbox && testing.Short() {
				t.Skip("runs bubblewrap sandboxes: slow; run without -short")
			}
			d, srv := doortest.Open(t, doortest.Fixer, sandbox)
			srv.Version = "0.12.0" // the server answers as Ollama does
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
			if !strings.Contains(string(req.Body), `"num_ctx":8192`) || !strings.Contains(string(req.Body), `"reasoning_effort":"none"`) {
				t.Errorf("Ollama was not told the context size and no thinking: %s", req.Body)
			}
			if sandbox && strings.Contains(string(req.Body), "SECRET") {
				t.Error("credential in the body")
			}
		})
	}
}

func TestSessionContinues(t *testing.T) {
	t.Parallel()
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
	t.Parallel()
	d, _ := doortest.Open(t, doortest.Fixer, false)
	proj := doortest.Project(t)
	tests := []struct {
		req  Request
		kind error
		want string
	}{
		{Request{Project: "/no/such/dir", Text: "x"}, ErrInvalid, "unknown project"},
		{Request{Project: proj, Text: "  "}, ErrInvalid, "empty"},
		{Request{Project: proj, Text: strings.Repeat("x", 70000)}, ErrTooLarge, "limit is"},
		{Request{Project: proj, Text: "x", Session: "nope"}, ErrInvalid, "unknown session"},
	}
	for _, tt := range tests {
		_, err := d.Ask(context.Background(), tt.req, nil)
		if !errors.Is(err, tt.kind) || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%+v: %v, want %v saying %q", tt.req.Session+tt.req.Project, err, tt.kind, tt.want)
		}
	}
	nomodel, err := Open(Config{Harness: "../harness", Home: t.TempDir(), Env: []string{"PATH=" + os.Getenv("PATH")}})
	if err != nil {
		t.Fatal(err)
	}
	defer nomodel.Close()
	if _, err := nomodel.Ask(context.Background(), Request{Project: proj, Text: "x"}, nil); !errors.Is(err, ErrNoModel) || !strings.Contains(err.Error(), "no model configured") {
		t.Errorf("no model: %v", err)
	}
	if ss, _ := d.Sessions(); len(ss) != 0 {
		t.Errorf("bad requests left records: %+v", ss)
	}
}

func TestInterruptedRequestIsSavedWhole(t *testing.T) {
	t.Parallel()
	// The request is cancelled once the model has it, and the model
	// answers only after that.
	asked := make(chan struct{}, 1)
	slow := func(r fakemodel.Request) fakemodel.Step {
		select {
		case asked <- struct{}{}:
		default:
		}
		time.Sleep(3 * time.Second)
		return fakemodel.Step{Text: "late"}
	}
	d, _ := doortest.Open(t, slow, false, func(c *Config) { c.Test = "true" })
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() { <-asked; cancel() }()
	rec, err := d.Ask(ctx, Request{Project: doortest.Project(t), Text: "fix it"}, nil)
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
	cmake := "cmake -S . -B build && cmake --build build && ctest --test-dir build --output-on-failure"
	for files, want := range map[string]string{"go.mod": "go test ./...", "pytest.ini": "pytest -q",
		"package.json": "npm test", "Makefile": "make test", "README": "", "Cargo.toml": "cargo test",
		"pom.xml": "mvn -q test", "build.gradle": "gradle test", "build.gradle.kts gradlew": "./gradlew test",
		"CMakeLists.txt": cmake, "CMakeLists.txt Makefile": "make test", "Cargo.toml package.json": "cargo test",
		"package.json CMakeLists.txt": "npm test"} {
		dir := t.TempDir()
		for _, f := range strings.Fields(files) {
			body := map[string]string{"package.json": `{"scripts":{"test":"jest"}}`, "Makefile": "build:\n\ttrue\ntest:\n\ttrue\n"}[f]
			os.WriteFile(filepath.Join(dir, f), []byte(body), 0o644)
		}
		if got := DetectTest(dir); got != want {
			t.Errorf("%s: %q, want %q", files, got, want)
		}
	}
	// A package.json without a test script names no command: a C++ project
	// whose tooling keeps one (for a formatter, say) is still built by CMake.
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "package.json"), []byte(`{"devDependencies":{"prettier":"3"}}`), 0o644)
	os.WriteFile(filepath.Join(dir, "CMakeLists.txt"), []byte("project(x)\n"), 0o644)
	if got := DetectTest(dir); got != cmake {
		t.Errorf("package.json without a test script beside CMakeLists.txt: %q, want %q", got, cmake)
	}
}

func TestWriteBackStaysInsideTheProject(t *testing.T) {
	proj, outside := t.TempDir(), t.TempDir()
	os.Symlink(outside, filepath.Join(proj, "link"))
	os.MkdirAll(filepath.Join(proj, ".git", "hooks"), 0o755)
	os.WriteFile(filepath.Join(proj, ".git", "config"), []byte("[core]\n"), 0o644)
	os.Symlink(".git/config", filepath.Join(proj, "inner")) // a link that stays inside, but leads to .git
	os.WriteFile(filepath.Join(proj, "gone.txt"), []byte("x"), 0o644)
	before := map[string][]byte{"gone.txt": []byte("x"), ".git/config": []byte("[core]\n")}
	after := map[string][]byte{"link/evil.txt": []byte("pwned"), "sub/new.go": []byte("package sub\n"), "inner": []byte("[core]\nhooksPath=/tmp\n"),
		".git/hooks/pre-commit": []byte("#!/bin/sh\nid\n"), ".github/workflows/x.yml": []byte("on: push\n"), "a/.env": []byte("K=v\n")}
	withheld, err := WriteBackForTest(proj, before, after)
	if err != nil {
		t.Fatal(err)
	}
	if _, serr := os.Stat(filepath.Join(outside, "evil.txt")); serr == nil {
		t.Fatal("a write went through the project's symlink")
	}
	if b, _ := os.ReadFile(filepath.Join(proj, ".git", "config")); string(b) != "[core]\n" {
		t.Errorf(".git/config was changed (deleted or rewritten through a link): %q", b)
	}
	for _, p := range []string{".git/hooks/pre-commit", ".github", "a/.env"} {
		if _, serr := os.Stat(filepath.Join(proj, p)); serr == nil {
			t.Errorf("%s reached the project", p)
		}
	}
	want := ".git/config .git/hooks/pre-commit .github/workflows/x.yml a/.env inner link/evil.txt"
	if got := strings.Join(withheld, " "); got != want {
		t.Errorf("withheld = %q, want %q", got, want)
	}
	if b, _ := os.ReadFile(filepath.Join(proj, "sub", "new.go")); string(b) != "package sub\n" {
		t.Error("a normal new file was not written back")
	}
	if _, serr := os.Stat(filepath.Join(proj, "gone.txt")); serr == nil {
		t.Error("a file the agent deleted is still there")
	}
}

func TestDotPath(t *testing.T) {
	for name, want := range map[string]bool{".git/config": true, "a/.env": true, "a/b.go": false, "x/y/.hidden/z": true, "a.b/c": false} {
		if got := DotPathForTest(name); got != want {
			t.Errorf("dotPath(%q) = %v, want %v", name, got, want)
		}
	}
}

func TestRootsRefuseProjectsOutside(t *testing.T) {
	t.Parallel()
	root, other := t.TempDir(), doortest.Project(t)
	inside := filepath.Join(root, "app")
	os.Mkdir(inside, 0o755)
	os.Symlink(other, filepath.Join(root, "escape")) // inside by name, outside in fact
	d, srv := doortest.Open(t, doortest.Fixer, false, func(c *Config) { c.Roots = []string{root} })
	for _, p := range []string{other, filepath.Join(root, "escape"), filepath.Join(root, "..", filepath.Base(other)), "/no/such/dir", "/"} {
		if _, err := d.Ask(context.Background(), Request{Project: p, Text: "x"}, nil); !errors.Is(err, ErrForbidden) {
			t.Errorf("%s: %v, want ErrForbidden", p, err)
		}
	}
	if _, err := d.Ask(context.Background(), Request{Project: filepath.Join(root, "nope"), Text: "x"}, nil); !errors.Is(err, ErrInvalid) {
		t.Errorf("a missing folder inside the root: %v, want ErrInvalid", err)
	}
	if len(srv.Requests()) != 0 {
		t.Error("a refused request reached the model")
	}
	if _, err := Open(Config{Home: t.TempDir(), Roots: []string{"/no/such/root"}}); err == nil || !strings.Contains(err.Error(), "--root") {
		t.Errorf("a missing root: %v", err)
	}
}

func TestHostEnvDropsCredentials(t *testing.T) {
	env := []string{"PATH=/usr/bin", "HOME=/root", "MODEL_API_KEY=sk-1", "OPENAI_API_KEY=sk-2", "GITHUB_TOKEN=gh", "AWS_SECRET_ACCESS_KEY=a",
		"SSH_AUTH_SOCK=/run/s", "DB_PASSWORD=p", "RATCHET_TOKEN=t", "ODD_NAME=sk-1", "MODEL_NAME=m"}
	got := strings.Join(HostEnv(env, "sk-1"), " ")
	if got != "PATH=/usr/bin HOME=/root MODEL_NAME=m" {
		t.Errorf("HostEnv = %q", got)
	}
}

func TestBudgetIsFiniteAndSaysWhenSpent(t *testing.T) {
	t.Parallel()
	d, srv := doortest.Open(t, func(r fakemodel.Request) fakemodel.Step {
		return fakemodel.Step{Text: "reading", Calls: []fakemodel.Call{{ID: "c" + strconv.Itoa(len(r.Messages())), Name: "list_dir", Args: `{"path":"."}`}}, In: 300, Out: 100}
	}, false, func(c *Config) { c.Budget = 3000; c.Test = "true" })
	var progress bytes.Buffer
	rec, err := d.Ask(context.Background(), Request{Project: doortest.Project(t), Text: "look around"}, &progress)
	if err != nil {
		t.Fatal(err)
	}
	if rec.Outcome != "budget_spent" || !strings.Contains(progress.String(), "of the request's 3000 model tokens and was stopped") {
		t.Errorf("outcome %q, progress:\n%s", rec.Outcome, progress.String())
	}
	// The script never stops asking; only the budget ends it.
	if n := len(srv.Requests()); n < 1 || n*400 > 3000 {
		t.Errorf("%d model requests reached the model at 400 tokens each; the budget is 3000", n)
	}
}

// A server that is not Ollama (a hosted API: OpenAI, Anthropic; vLLM) is
// sent none of Ollama's fields, whatever --num-ctx says: a hosted API
// refuses a request field it does not know (issue 36 found every request
// carrying "options" and "reasoning_effort").
func TestOnlyOllamaGetsOllamasFields(t *testing.T) {
	t.Parallel()
	for _, api := range []string{"openai", "anthropic"} {
		d, srv := doortest.Open(t, doortest.Fixer, false, func(c *Config) { c.Env = append(c.Env, "MODEL_API="+api) })
		if _, err := d.Ask(context.Background(), Request{Project: doortest.Project(t), Text: "Double is wrong; fix it."}, nil); err != nil {
			t.Fatal(err)
		}
		reqs := srv.Requests()
		if len(reqs) == 0 {
			t.Fatalf("%s: no request reached the model", api)
		}
		for _, r := range reqs {
			if b := string(r.Body); strings.Contains(b, `"options"`) || strings.Contains(b, "num_ctx") || strings.Contains(b, "reasoning_effort") {
				t.Errorf("%s: a request to a server that is not Ollama carries Ollama's fields: %.400s", api, b)
			}
		}
	}
}

// Ollama cuts a prompt longer than num_ctx without an error, and reports the
// tokens it kept: a reply charged nearly all of num_ctx means the prompt was
// (or nearly was) cut, and the record and the progress say so. A server
// that is not Ollama is not told num_ctx, so nothing is said there.
func TestAFullOllamaContextIsSaid(t *testing.T) {
	t.Parallel()
	full := func(r fakemodel.Request) fakemodel.Step {
		s := doortest.Fixer(r)
		s.In = 8150 // of doortest's num_ctx 8192
		return s
	}
	for _, ollama := range []bool{true, false} {
		d, srv := doortest.Open(t, full, false)
		if ollama {
			srv.Version = "0.12.0"
		}
		var progress bytes.Buffer
		rec, err := d.Ask(context.Background(), Request{Project: doortest.Project(t), Text: "Double is wrong; fix it."}, &progress)
		if err != nil {
			t.Fatal(err)
		}
		said := len(rec.Warnings) == 1 && strings.Contains(rec.Warnings[0], "context was full") &&
			strings.Contains(progress.String(), "warning: the model's context was full")
		if said != ollama {
			t.Errorf("ollama %v: warnings %q", ollama, rec.Warnings)
		}
	}
}
