package anchor

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// Python tasks scored by pytest (runners.go), through ScoreTree and the
// real bubblewrap sandbox: honest work scores its hidden tests, and each
// way an agent's tree or code can fake pytest's results is caught or
// counts nothing.

const pyTestsPublic = "import unittest\n\nfrom calc import add\n\n\nclass AddTest(unittest.TestCase):\n" +
	"    def test_zero(self):\n        self.assertEqual(add(0, 0), 0)\n"

const pyTestsHidden = pyTestsPublic + "\n    def test_two(self):\n        self.assertEqual(add(1, 1), 2)\n\n" +
	"    def test_negative(self):\n        self.assertEqual(add(-1, -2), -3)\n"

const pyTestsMore = "import pytest\n\nfrom calc import add\n\n\n@pytest.mark.parametrize(\"x\", [1, 2, 3])\n" +
	"def test_right_zero(x):\n    assert add(0, x) == x\n\n\nclass TestPairs:\n    def test_pair(self):\n        assert add(2, 3) == 5\n"

const pyBuggy = "def add(a, b):\n    return a - b\n"
const pyFixed = "def add(a, b):\n    return a + b\n"

// pyTask writes a pytest task: add subtracts; the public test passes on
// it, the hidden ones (a unittest class and a pytest file with a
// parametrized test and a class) do not. Five hidden tests in all.
func pyTask(t *testing.T, command string) Task {
	t.Helper()
	return pyTaskIn(t, t.TempDir(), command)
}

func pyTaskIn(t *testing.T, suite, command string) Task {
	t.Helper()
	if _, err := os.Stat("/usr/bin/python3"); err != nil {
		t.Skip("needs /usr/bin/python3 with pytest (apt-get install python3-pytest; scripts/deps.sh does)")
	}
	dir := filepath.Join(suite, "train", "py")
	writeFiles(t, dir, map[string]string{
		"task.toml":                 "prompt = \"add is wrong. Fix it.\"\ntest = \"" + command + "\"\ntimeout = \"60s\"\n",
		"repo/calc.py":              pyBuggy,
		"repo/test_calc.py":         pyTestsPublic,
		"hidden/test_calc.py":       pyTestsHidden,
		"hidden/tests/more_test.py": pyTestsMore,
		"reference/calc.py":         pyFixed,
	})
	task, err := LoadTask(dir)
	if err != nil {
		t.Fatal(err)
	}
	return task
}

// scorePy scores the task's repo with the agent's changes.
func scorePy(t *testing.T, task Task, changes map[string]string) Scored {
	t.Helper()
	agent, err := ReadTree(filepath.Join(task.Dir, "repo"), false)
	if err != nil {
		t.Fatal(err)
	}
	for name, b := range changes {
		agent[name] = []byte(b)
	}
	s := ScoreTree(ctx(), task, agent, filepath.Join(t.TempDir(), "score"), 0)
	t.Logf("%d of %d, outcome %q: %s", s.Passed, s.Total, s.Outcome, s.Error)
	return s
}

func TestPytestHonest(t *testing.T) {
	slow(t)
	t.Parallel()
	for _, command := range []string{"pytest", "python3 -m pytest -q"} {
		task := pyTask(t, command)
		if !task.pytest() {
			t.Fatalf("%q is not scored as a pytest task", command)
		}
		if s := scorePy(t, task, nil); s.Passed != 1 || s.Total != 5 || s.Outcome != "" {
			t.Errorf("%s: the untouched repo scored %d/%d %q, want 1/5 (only test_zero passes)", command, s.Passed, s.Total, s.Outcome)
		}
		s := scorePy(t, task, map[string]string{"calc.py": pyFixed})
		if s.Passed != 5 || s.Total != 5 || s.Outcome != "" {
			t.Errorf("%s: the fix scored %d/%d %q %s, want 5/5", command, s.Passed, s.Total, s.Outcome, s.Error)
		}
		// ratchet verify counts the stored report again with the task as
		// LoadTask reads it, not as ScoreTree rewrote its command.
		hidden := must(ReadTree(filepath.Join(task.Dir, "hidden"), true))
		again := Count(task, s.Report.Out, s.Report.Exit, s.Report.JUnit, hidden, s.Report.Mods, s.Report.Canaries, "")
		if again.Passed != s.Passed || again.Total != s.Total || again.Outcome != s.Outcome {
			t.Errorf("%s: the stored report counts %d/%d %q again, scoring counted %d/%d", command, again.Passed,
				again.Total, again.Outcome, s.Passed, s.Total)
		}
	}
}

// Forgers, in Python. stripAtExit is code that, wherever it runs, takes
// every failure out of pytest's report as the process exits (the report's
// path read from pytest's own arguments): if it runs at all, the canary
// passes.
const stripAtExit = "import atexit, re, sys\n\n\ndef _strip():\n" +
	"    for a in sys.argv:\n        if a.startswith('--junitxml='):\n            p = a.split('=', 1)[1]\n" +
	"            s = re.sub(r'<(failure|error)\\b.*?</\\1>', '', open(p).read(), flags=re.S)\n" +
	"            open(p, 'w').write(s)\n\n\natexit.register(_strip)\n"

// reportHook is a pytest plugin that reports every test passed.
const reportHook = "import pytest\n\n\n@pytest.hookimpl(hookwrapper=True)\ndef pytest_runtest_makereport(item, call):\n" +
	"    outcome = yield\n    outcome.get_result().outcome = 'passed'\n"

// registerFromCode is the same hook registered by the code under test, at
// import, on the running pytest's plugin manager (found by the garbage
// collector): a blanket forger.
const registerFromCode = pyBuggy + "\n\nimport gc\nimport _pytest.config\n\n\nclass _Forge:\n" +
	"    @__import__('pytest').hookimpl(hookwrapper=True)\n    def pytest_runtest_makereport(self, item, call):\n" +
	"        outcome = yield\n        outcome.get_result().outcome = 'passed'\n\n\n" +
	"for _c in gc.get_objects():\n    if isinstance(_c, _pytest.config.Config):\n        _c.pluginmanager.register(_Forge())\n"

// Everything the agent's tree can do to pytest's configuration or start-up
// is neutralised: each tree below would score 5/5 (or be caught) if its
// forger ran; it scores what the buggy code earns, 1 of 5, cleanly.
func TestPytestTreeCannotConfigurePytest(t *testing.T) {
	slow(t)
	t.Parallel()
	task := pyTask(t, "pytest")
	plugin := map[string]string{"forgeplugin.py": reportHook}
	for _, tt := range []struct {
		name  string
		files map[string]string
	}{
		{"conftest.py at the root", map[string]string{"conftest.py": reportHook}},
		{"conftest.py beside a hidden test", map[string]string{"tests/conftest.py": reportHook}},
		{"plugin by entry point", map[string]string{"forgeplugin.py": reportHook, "forge-1.0.dist-info/METADATA": "Name: forge\nVersion: 1.0\n",
			"forge-1.0.dist-info/entry_points.txt": "[pytest11]\nforge = forgeplugin\n"}},
		{"pytest.ini addopts", merged(plugin, "pytest.ini", "[pytest]\naddopts = -p forgeplugin\n")},
		{"pyproject.toml addopts", merged(plugin, "pyproject.toml", "[tool.pytest.ini_options]\naddopts = \"-p forgeplugin\"\n")},
		{"setup.cfg addopts", merged(plugin, "setup.cfg", "[tool:pytest]\naddopts = -p forgeplugin\n")},
		{"tox.ini addopts", merged(plugin, "tox.ini", "[pytest]\naddopts = -p forgeplugin\n")},
		{"pytest_plugins in a conftest", merged(plugin, "conftest.py", "pytest_plugins = ['forgeplugin']\n")},
		{"sitecustomize.py", map[string]string{"sitecustomize.py": stripAtExit}},
		{"usercustomize.py", map[string]string{"usercustomize.py": stripAtExit}},
		{".pth file", map[string]string{"forge.py": stripAtExit, "forge.pth": "import forge\n"}},
		{"a module named like pytest", map[string]string{"pytest.py": "raise SystemExit(0)\n"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if s := scorePy(t, task, tt.files); s.Passed != 1 || s.Total != 5 || s.Outcome != "" {
				t.Errorf("scored %d/%d, outcome %q (%s); want 1/5: the forger must not run", s.Passed, s.Total, s.Outcome, s.Error)
			}
		})
	}
}

func merged(m map[string]string, name, body string) map[string]string {
	out := map[string]string{name: body}
	for k, v := range m {
		out[k] = v
	}
	return out
}

// Bytecode the agent's own runs left in its tree is not read: a fixed add
// compiled unchecked (Python would trust it without looking at calc.py)
// beside the buggy source scores as the source does.
func TestPytestTreeBytecodeIsNotRead(t *testing.T) {
	slow(t)
	t.Parallel()
	task := pyTask(t, "pytest")
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"calc.py": pyFixed})
	script := "import py_compile; py_compile.compile('calc.py', cfile='calc.pyc', invalidation_mode=py_compile.PycInvalidationMode.UNCHECKED_HASH)"
	cmd := exec.Command("/usr/bin/python3", "-c", script)
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("compile: %v: %s", err, out)
	}
	pyc, _ := os.ReadFile(filepath.Join(dir, "calc.pyc"))
	tag, _ := exec.Command("/usr/bin/python3", "-c", "import sys; print(sys.implementation.cache_tag)").Output()
	s := scorePy(t, task, map[string]string{"__pycache__/calc." + strings.TrimSpace(string(tag)) + ".pyc": string(pyc)})
	if s.Passed != 1 || s.Outcome != "" {
		t.Errorf("bytecode in the tree scored %d/%d %q, want 1/5 (the buggy source's score)", s.Passed, s.Total, s.Outcome)
	}
}

// Forgers in the code under test run in the test process; what they fake
// is caught by the canary or counts nothing.
func TestPytestForgersInTheCode(t *testing.T) {
	slow(t)
	t.Parallel()
	task := pyTask(t, "pytest")
	var pad strings.Builder
	pad.WriteString("def test_pad_0():\n    pass\n")
	for i := range 100 {
		fmt.Fprintf(&pad, "\n\ndef test_pad_%d():\n    pass\n", i+1)
	}
	padReport := "import atexit, sys\n\n\ndef _pad():\n    for a in sys.argv:\n        if a.startswith('--junitxml='):\n" +
		"            p = a.split('=', 1)[1]\n            cases = ''.join('<testcase classname=\"test_calc\" name=\"test_pad_%d\" file=\"test_calc.py\"/>' % i for i in range(100))\n" +
		"            s = open(p).read().replace('</testsuite>', cases + '</testsuite>')\n            open(p, 'w').write(s)\n\n\natexit.register(_pad)\n"
	madeUp := "import atexit, os, sys\n\n\ndef _report():\n    for a in sys.argv:\n        if a.startswith('--junitxml='):\n" +
		"            open(a.split('=', 1)[1], 'w').write('<testsuites><testsuite>' +\n" +
		"                ''.join('<testcase classname=\"test_calc.AddTest\" name=\"%s\" file=\"test_calc.py\"/>' % n for n in ['test_zero', 'test_two', 'test_negative']) +\n" +
		"                '</testsuite></testsuites>')\n    os._exit(0)\n\n\natexit.register(_report)\n"
	quiet := pyBuggy + "\n\nimport unittest\nunittest.TestCase.assertEqual = lambda self, a, b, msg=None: None\n"
	for _, tt := range []struct {
		name   string
		files  map[string]string
		forged bool
	}{
		{"a hook registered at import (blanket)", map[string]string{"calc.py": registerFromCode}, true},
		{"failures stripped from the report at exit", map[string]string{"calc.py": pyBuggy + "\n" + stripAtExit}, true},
		{"assertEqual quieted", map[string]string{"calc.py": quiet}, true},
		{"a report made up from the public tests' names", map[string]string{"calc.py": pyBuggy + "\n" + madeUp}, true},
		{"a report left in the tree", map[string]string{pytestReport: "<testsuites><testsuite>" +
			strings.Repeat("<testcase file=\"test_calc.py\" classname=\"test_calc.AddTest\" name=\"test_two\"/>", 3) + "</testsuite></testsuites>",
			"calc.py": "import os\nos._exit(0)\n"}, false},
		{"padding with new test files", map[string]string{"test_pad.py": pad.String(), "tests/pad_test.py": pad.String(), "calc_test.py": pad.String()}, false},
		{"padding the report", map[string]string{"calc.py": pyBuggy + "\n" + padReport}, false},
		{"code that does not import", map[string]string{"calc.py": "def add(a, b)\n"}, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			s := scorePy(t, task, tt.files)
			switch {
			case tt.forged && s.Outcome != "forged":
				t.Errorf("scored %d/%d, outcome %q; want forged", s.Passed, s.Total, s.Outcome)
			case !tt.forged && (s.Passed > 1 || s.Outcome != ""):
				t.Errorf("scored %d/%d, outcome %q; want at most the buggy code's 1/5, not forged", s.Passed, s.Total, s.Outcome)
			}
		})
	}
}

// Through the real anchor: a harness that plants the blanket forger in
// the agent's tree is caught; one that fixes the code scores every test.
func TestPytestThroughTheAnchor(t *testing.T) {
	slow(t)
	t.Parallel()
	e := newEnv(t)
	task := pyTaskIn(t, e.suite, "python3 -m pytest")
	for _, tt := range []struct {
		calc    string
		outcome Outcome
		score   float64
	}{{registerFromCode, "forged", 0}, {pyFixed, "ok", 1}} {
		r, err := e.a.RunTask(ctx(), e.hostile(t, map[string]string{"tree/calc.py": tt.calc}, nil), task.Dir, 0, true)
		if err != nil {
			t.Fatal(err)
		}
		if r.Outcome != tt.outcome || r.Score != tt.score {
			t.Errorf("outcome %q score %v (%d/%d: %s), want %q %v", r.Outcome, r.Score, r.Passed, r.Total, r.Error, tt.outcome, tt.score)
		}
	}
}

// A stored report is read again by ratchet verify, and may have been
// edited: a canary key without a file part counts, never panics.
func TestPytestCountTakesAnyKeys(t *testing.T) {
	report := []byte(`<testsuites><testsuite><testcase file="t.py" name="test_a"/></testsuite></testsuites>`)
	s := runners[0].count(report, map[string]bool{"nofile": true, "t.py test_a": false})
	if s.Passed != 1 || s.Total != 1 || s.Outcome != "" {
		t.Errorf("pytestCount = %+v, want 1/1", s)
	}
}
