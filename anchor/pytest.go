package anchor

import (
	"encoding/xml"
	"fmt"
	mrand "math/rand/v2"
	"regexp"
	"strings"
)

var pytestLine = regexp.MustCompile(`^\s*(pytest|python3? -m pytest)(\s|$)`)
var pyDef = regexp.MustCompile(`(?m)^[ \t]*def (test\w*)`)

// pytestReport is where scoring's pytest writes its JUnit report, in the
// tree: whatever the agent left there is deleted first.
const pytestReport = ".anchor-pytest.xml"

// pytest tells a task whose command runs pytest: scored test by test.
func (t Task) pytest() bool { return t.JUnit == "" && pytestLine.MatchString(t.Test) }

// pytestCommand plants in each hidden test file a canary, a test that must
// fail (through unittest's assertEqual, so a forger that quiets it passes
// the canary), and returns the command that scores a pytest task, the
// report's path and the keys of the hidden tests (false) and the canaries
// (true). The command runs pytest on the hidden test files alone, by the
// system's python isolated (no PYTHON* variables, no user site, the tree
// not on sys.path at start-up, so no sitecustomize or .pth of the agent's),
// with bytecode only in the sandbox's fresh /tmp, no cache, no plugin
// loaded by entry point and no configuration file, the task root put on
// sys.path as python3 -m pytest there would, and a test file that does not
// import failing its own tests only. The agent's conftest.py files are gone
// with its other test files.
func pytestCommand(files, hidden map[string][]byte) (string, string, map[string]bool) {
	command := "PYTEST_DISABLE_PLUGIN_AUTOLOAD=1 exec /usr/bin/python3 -I -B -X pycache_prefix=/tmp/pyc" +
		" -m pytest -p no:cacheprovider -c /dev/null --rootdir=/work/task -o junit_family=xunit1 -q" +
		" -o pythonpath=/work/task --continue-on-collection-errors --junitxml=" + pytestReport + " --"
	delete(files, pytestReport)
	keys := map[string]bool{}
	for name, b := range hidden {
		if !strings.HasSuffix(name, ".py") || !isTestFile(name) || strings.HasSuffix("/"+name, "/conftest.py") {
			continue
		}
		for _, m := range pyDef.FindAllSubmatch(b, -1) {
			keys[name+" "+string(m[1])] = false
		}
		test, x := fmt.Sprintf("test_%x", mrand.Uint32()), mrand.IntN(90)+10
		files[name] = fmt.Appendf(files[name], "\n\ndef %s():\n    n = len(%[1]s.__name__)\n"+
			"    __import__(\"unittest\").TestCase().assertEqual(n * %d, n * %[2]d + 1)\n", test, x)
		command += " " + quote(name)
		keys[name+" "+test] = true
	}
	return command, pytestReport, keys
}

// pytestCount counts every hidden test function or method, its
// parametrized cases together: passed when each case reported passed. One
// that did not report failed; other tests do not count. A canary that
// passed marks a forgery, and so does one missing where tests of its file
// passed (a report made up from known names).
func pytestCount(report []byte, keys map[string]bool) Scored {
	var doc struct {
		Cases []testCase `xml:"testsuite>testcase"`
	}
	s, passed, passedIn := Scored{}, map[string]bool{}, map[string]bool{}
	if xml.Unmarshal(report, &doc) != nil {
		s.Error = "the pytest report is missing or unreadable (scoring needs /usr/bin/python3 with pytest)"
	}
	for _, c := range doc.Cases {
		key := c.File + " " + strings.Split(c.Name, "[")[0]
		_, seen := passed[key]
		passed[key] = (passed[key] || !seen) && c.Failure == nil && c.Error == nil && c.Skipped == nil
		passedIn[c.File] = passedIn[c.File] || passed[key]
	}
	for key, canary := range keys {
		_, seen := passed[key]
		if canary && (passed[key] || !seen && passedIn[key[:max(strings.LastIndex(key, " "), 0)]]) {
			return Scored{Total: 1, Outcome: OutcomeForged, Error: "forged: the canary " + key + " did not fail"}
		}
		s.Passed, s.Total = s.Passed+b2i(!canary && passed[key]), s.Total+b2i(!canary) // canaries count nothing
	}
	s.Total = max(s.Total, 1)
	return s
}
