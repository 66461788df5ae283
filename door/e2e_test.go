package door_test

import (
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"ratchet/door/doortest"
	"ratchet/harness/fakemodel"
)

// hostileTest is what a model could write as a test: it looks for the
// credential everywhere it can reach, tries to write outside the sandbox
// and to reach the network, and plants a git hook. It reports what it
// found in leak.txt, which is an ordinary file and so is written back.
const hostileTest = `package m

import (
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestHostile(t *testing.T) {
	found := os.Environ()
	procs, _ := filepath.Glob("/proc/*/environ")
	for _, p := range procs {
		b, _ := os.ReadFile(p)
		found = append(found, strings.ReplaceAll(string(b), "\x00", "\n"))
	}
	for _, p := range []string{OUTSIDE, ESCAPE} {
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, []byte("escaped"), 0o644)
	}
	if c, err := net.Dial("tcp", MODEL); err == nil {
		c.Close()
		found = append(found, "network reached")
	}
	os.MkdirAll(".git/hooks", 0o755)
	os.WriteFile(".git/hooks/pre-commit", []byte("#!/bin/sh\nid\n"), 0o755)
	os.WriteFile("leak.txt", []byte("ran\n"+strings.Join(found, "\n")), 0o644)
}
`

func call(id, name string, args map[string]string) fakemodel.Step {
	b, _ := json.Marshal(args)
	return fakemodel.Step{Text: "working", Calls: []fakemodel.Call{{ID: id, Name: name, Args: string(b)}}, In: 50, Out: 20}
}

// Under --sandbox, what the agent writes runs only in sandboxes: its test
// cannot read the credential, write outside, or reach the network, and a
// planted hook never reaches the project.
func TestRunBinarySandboxContainsTheAgentsCode(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("builds the ratchet binary")
	}
	bin := doortest.Ratchet(t)
	proj, outside := doortest.Project(t), filepath.Join(t.TempDir(), "outside.txt")
	if out, err := exec.Command("git", "init", "-q", proj).CombinedOutput(); err != nil {
		t.Fatalf("git init: %v %s", err, out)
	}
	model, err := fakemodel.Start()
	if err != nil {
		t.Fatal(err)
	}
	defer model.Close()
	src := strings.NewReplacer("OUTSIDE", strconv.Quote(outside), "ESCAPE", strconv.Quote(filepath.Join(proj, "escaped.txt")),
		"MODEL", strconv.Quote(strings.TrimPrefix(model.URL, "http://"))).Replace(hostileTest)
	model.Add(
		call("c1", "write_file", map[string]string{"path": "hostile_test.go", "content": src}),
		call("c2", "write_file", map[string]string{"path": ".git/hooks/post-checkout", "content": "#!/bin/sh\nid\n"}),
		call("c3", "run_tests", map[string]string{}),
		fakemodel.Step{Text: "Added a test.", In: 50, Out: 10},
	)
	cmd := exec.Command(bin, "run", "--sandbox", "--project", proj, "--home", t.TempDir(), "--harness", doortest.Harness(), "add a test")
	cmd.Env = doortest.ModelEnv(model.URL)
	out, err := cmd.CombinedOutput()
	if exit, ok := err.(*exec.ExitError); err != nil && (!ok || exit.ExitCode() != 1) {
		t.Fatalf("ratchet run --sandbox: %v, want exit status 1 (the tests still fail)\n%s", err, out)
	}
	leak, err := os.ReadFile(filepath.Join(proj, "leak.txt"))
	if err != nil || !strings.HasPrefix(string(leak), "ran\n") {
		t.Fatalf("the agent's test did not run in the agent's sandbox (%v); output:\n%s", err, out)
	}
	if strings.Contains(string(leak), doortest.Secret) || strings.Contains(string(leak), "network reached") {
		t.Errorf("the agent's test found:\n%s", leak)
	}
	for _, p := range []string{outside, filepath.Join(proj, "escaped.txt"), filepath.Join(proj, ".git", "hooks", "pre-commit"),
		filepath.Join(proj, ".git", "hooks", "post-checkout")} {
		if _, err := os.Stat(p); err == nil {
			t.Errorf("%s exists on the host", p)
		}
	}
	if _, err := os.Stat(filepath.Join(proj, "hostile_test.go")); err != nil {
		t.Error("the agent's ordinary file was not written back")
	}
	if !strings.Contains(string(out), "not written back") || !strings.Contains(string(out), ".git/hooks/pre-commit") {
		t.Errorf("the withheld hook was not reported:\n%s", out)
	}
	// The tests after ran the hostile test again, in their own sandbox (on
	// the host it would have written outside.txt and read the credential
	// from the ratchet process's environment into leak.txt).
	if !strings.Contains(string(out), "tests after: fail (exit status 1)") {
		t.Errorf("tests after (Double is still wrong):\n%s", out)
	}
	for _, r := range model.Requests() {
		if strings.Contains(string(r.Body), doortest.Secret) {
			t.Error("the credential reached a model request body")
		}
	}
}

// Without --sandbox the operator's tests run on the host as the user, but
// without the credentials of the environment.
func TestRunBinaryHostTestsGetNoCredentials(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("builds the ratchet binary")
	}
	bin := doortest.Ratchet(t)
	proj := doortest.Project(t)
	model, err := fakemodel.Start(fakemodel.Step{Func: doortest.Fixer}, fakemodel.Step{Func: doortest.Fixer})
	if err != nil {
		t.Fatal(err)
	}
	defer model.Close()
	dump := filepath.Join(t.TempDir(), "env.txt")
	cmd := exec.Command(bin, "run", "--project", proj, "--home", t.TempDir(), "--harness", doortest.Harness(), "--test", "env > "+dump, "fix Double")
	cmd.Env = doortest.ModelEnv(model.URL)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("ratchet run: %v\n%s", err, out)
	}
	env, err := os.ReadFile(dump)
	if err != nil || !strings.Contains(string(env), "PATH=") {
		t.Fatalf("the test command did not run: %v", err)
	}
	if strings.Contains(string(env), doortest.Secret) {
		t.Errorf("a credential reached the host test command:\n%s", env)
	}
}

// Under --sandbox only what the agent wrote goes back: go itself, run by
// the agent's tests, must not add a go line to a go.mod that has none (it
// would raise the library's minimum Go). A project whose modules are not
// vendored fails its tests in the sandbox, and the record says why and
// what to do.
func TestRunBinarySandboxWritesBackOnlyTheAgentsChanges(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("builds the ratchet binary")
	}
	bin := doortest.Ratchet(t)
	steps := make([]fakemodel.Step, 20)
	for i := range steps {
		steps[i] = fakemodel.Step{Func: doortest.Fixer}
	}
	model, err := fakemodel.Start(steps...)
	if err != nil {
		t.Fatal(err)
	}
	defer model.Close()
	proj := doortest.Project(t)
	const goMod = "module example.com/m\n"
	os.WriteFile(filepath.Join(proj, "go.mod"), []byte(goMod), 0o644)
	cmd := exec.Command(bin, "run", "--sandbox", "--project", proj, "--home", t.TempDir(), "--harness", doortest.Harness(), "Double is wrong; fix it.")
	cmd.Env = doortest.ModelEnv(model.URL)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("ratchet run --sandbox: %v\n%s", err, out)
	}
	if b, _ := os.ReadFile(filepath.Join(proj, "go.mod")); string(b) != goMod {
		t.Errorf("go.mod changed although the agent never wrote it:\n%s", b)
	}
	if !strings.Contains(string(out), "files changed: m.go;") || !strings.Contains(string(out), "tests after: pass") {
		t.Errorf("want only m.go changed and the tests passing:\n%s", out)
	}

	dep := doortest.Project(t)
	os.WriteFile(filepath.Join(dep, "go.mod"), []byte("module example.com/m\n\ngo 1.26\n\nrequire example.com/missing v1.0.0\n"), 0o644)
	os.WriteFile(filepath.Join(dep, "dep.go"), []byte("package m\n\nimport _ \"example.com/missing\"\n"), 0o644)
	cmd = exec.Command(bin, "run", "--sandbox", "--project", dep, "--home", t.TempDir(), "--harness", doortest.Harness(), "Double is wrong; fix it.")
	cmd.Env = doortest.ModelEnv(model.URL)
	served := len(model.Requests())
	out, err = cmd.CombinedOutput()
	if !regexp.MustCompile(`tests before: fail \(exit status 1\): .*(GOPROXY=off|missing go.sum entry).*vendor the modules with go mod vendor`).Match(out) {
		t.Errorf("a project with modules not vendored: the cause is not named:\n%s", out)
	}
	// The agent could not build the tests either: the model is never asked,
	// and ratchet run says so as bad input (exit 2).
	var exit *exec.ExitError
	if n := len(model.Requests()) - served; n != 0 || !errors.As(err, &exit) || exit.ExitCode() != 2 ||
		!strings.Contains(string(out), "not sent to the model") {
		t.Errorf("a project whose tests cannot build offline: %d model requests, %v; want none and exit 2:\n%s", n, err, out)
	}
}
