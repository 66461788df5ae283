package anchor

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"maps"
	mrand "math/rand/v2"
	"regexp"
	"slices"
	"strings"
)

// A runner is a language whose tests the anchor runs by its own command and
// counts test by test from a report it asks for: a task is scored by one
// when its test command begins as the runner's does and it names no JUnit
// report of its own. Every runner plants a canary bound to fail in each
// hidden test file, and takes the files that configure it from the task,
// never from the agent.
type runner struct {
	name    string
	command *regexp.Regexp // how the task's test command begins
	test    *regexp.Regexp // a hidden test file's path
	def     *regexp.Regexp // a test's name in one, its last group
	owned   *regexp.Regexp // the runner's configuration: only the task's copy is used
	canary  string         // a test bound to fail: %[1]s its name, %[2]d a number
	script  string         // the command; $@ holds the hidden test files
	report  string         // the report, in the tree: whatever the agent left there is deleted first
	cases   func([]byte) ([]testCase, error)
}

// jsModules is where scripts/deps.sh installs jest and babel for the jest
// runner (npm install --prefix /usr/lib/ratchet-js): the sandbox sees /usr/lib.
const jsModules = "/usr/lib/ratchet-js/node_modules"

// pytestReport is where scoring's pytest writes its JUnit report.
const pytestReport = ".anchor-pytest.xml"

// The runners. pytest runs by the system's python isolated (no PYTHON*
// variables, no user site, the tree not on sys.path at start-up, so no
// sitecustomize or .pth of the agent's), with bytecode only in the
// sandbox's fresh /tmp, no cache, no plugin loaded by entry point and no
// configuration file, the task root put on sys.path as python3 -m pytest
// there would, and a test file that does not import failing its own tests
// only; the agent's conftest.py files are gone with its other test files.
// cargo runs each hidden integration test file offline, every feature of
// the task's Cargo.toml on and ignored tests included, with no build script
// or .cargo of the agent's, one test at a time, the canary last (a forger
// cannot wait for it to fail on another thread, then report and exit).
// jest runs the anchor's configuration (no config file, babel config or
// setup file of the tree's is read). Catch2 tests are compiled by
// g++ with the tree's sources and the task's main, no build file read. JUnit
// tests are compiled by javac and run by the console launcher.
var runners = []runner{{
	name: "pytest", command: regexp.MustCompile(`^\s*(pytest|python3? -m pytest)(\s|$)`),
	test:  regexp.MustCompile(`(^|/)(test_[^/]*|[^/]*_test)\.py$`),
	def:   regexp.MustCompile(`(?m)^[ \t]*def (test\w*)`),
	owned: regexp.MustCompile(`^$`),
	canary: "\n\ndef %s():\n    n = len(%[1]s.__name__)\n" +
		"    __import__(\"unittest\").TestCase().assertEqual(n * %d, n * %[2]d + 1)\n",
	script: "PYTEST_DISABLE_PLUGIN_AUTOLOAD=1 exec /usr/bin/python3 -I -B -X pycache_prefix=/tmp/pyc" +
		" -m pytest -p no:cacheprovider -c /dev/null --rootdir=/work/task -o junit_family=xunit1 -q" +
		" -o pythonpath=/work/task --continue-on-collection-errors --junitxml=" + pytestReport + ` -- "$@"`,
	report: pytestReport, cases: junitCases,
}, {
	name: "cargo", command: regexp.MustCompile(`^\s*cargo test(\s|$)`),
	test:   regexp.MustCompile(`^tests/[^/]+\.rs$`),
	def:    regexp.MustCompile(`#\[test\]\s*(?:(?:#\[[^\]]*\]|//[^\n]*)\s*)*fn (\w+)`),
	owned:  regexp.MustCompile(`^(Cargo\.(toml|lock)|build\.rs|\.cargo/.*|rust-toolchain(\.toml)?)$`),
	canary: "\n#[test]\nfn %s() {\n    let n = \"%[1]s\".len();\n    assert_eq!(n * %d, n * %[2]d + 1);\n}\n",
	script: `export CARGO_HOME=/tmp/cargo CARGO_TARGET_DIR=/tmp/target RUSTC_BOOTSTRAP=1; for f; do ` +
		`f=${f#tests/}; cargo test -q --offline --config 'source.crates-io.replace-with="deb"' ` +
		`--config 'source.deb.directory="/usr/share/cargo/registry"' --all-features --test "${f%.rs}" -- ` +
		`--include-ignored --test-threads=1 -Z unstable-options --format json >> .anchor-cargo.json; done`,
	report: ".anchor-cargo.json", cases: cargoCases,
}, {
	name: "jest", command: regexp.MustCompile(`^\s*(npx )?jest(\s|$)`),
	test: regexp.MustCompile(`\.(spec|test)\.[jt]sx?$`),
	def:  regexp.MustCompile(`(?m)^\s*x?(?:test|it)\(\s*['"\x60](.*?)['"\x60],`),
	owned: regexp.MustCompile(`(^|/)(package\.json|\.babelrc.*|babel\.config\..*|jest\.config\..*)$` +
		`|(^|/)(node_modules|__mocks__)/`),
	canary: "\ntest('%s', () => {\n  const n = '%[1]s'.length;\n  expect(n * %d).toEqual(n * %[2]d + 1);\n});\n",
	script: `exec node ` + jsModules + `/jest/bin/jest.js --ci --testTimeout=60000 --json ` +
		`--outputFile=.anchor-jest.json --config '{"rootDir": "/work/task", "transform": {"\\.[jt]sx?$": ["` +
		jsModules + `/babel-jest/build/index.js", {"babelrc": false, "configFile": false, "presets": [["` +
		jsModules + `/@babel/preset-env", {"targets": {"node": "current"}}]]}]}}' --runTestsByPath "$@"`,
	report: ".anchor-jest.json", cases: jestCases,
}, {
	name: "catch2", command: regexp.MustCompile(`^\s*(g|c)\+\+\s`),
	test:   regexp.MustCompile(`^[^/]*_test\.cpp$`),
	def:    regexp.MustCompile(`TEST_CASE\(\s*"((?:[^"\\]|\\.)*)"`),
	owned:  regexp.MustCompile(`(^|/)(CMakeLists\.txt|[^/]*\.cmake)$|^test/`),
	canary: "\nTEST_CASE(\"%s\") {\n    int n = sizeof(\"%[1]s\");\n    REQUIRE(n * %d == n * %[2]d + 1);\n}\n",
	script: `for f in *.cpp; do case $f in *_test.cpp) ;; *) set -- "$@" "$f";; esac; done; ` +
		`g++ -std=c++17 -DEXERCISM_RUN_ALL_TESTS -I. -o /tmp/tests "$@" test/tests-main.cpp && ` +
		`/tmp/tests -r junit -o .anchor-catch2.xml`,
	report: ".anchor-catch2.xml", cases: junitCases,
}, {
	name: "junit", command: regexp.MustCompile(`^\s*(gradle|\./gradlew|mvn)\s+test(\s|$)`),
	test:  regexp.MustCompile(`^src/test/java/.*\.java$`),
	def:   regexp.MustCompile(`(?s)@(?:Test|ParameterizedTest)\b[^{;]*?\bvoid\s+(\w+)\s*\(`),
	owned: regexp.MustCompile(`^(build\.gradle.*|settings\.gradle.*|pom\.xml|gradlew.*|gradle/.*|\.mvn/.*)$`),
	canary: "\n    @org.junit.jupiter.api.Test\n    public void %s() {\n        int n = \"%[1]s\".length();\n" +
		"        org.assertj.core.api.Assertions.assertThat(n * %d).isEqualTo(n * %[2]d + 1);\n    }\n}\n",
	script: `J=/usr/share/java; javac -nowarn -proc:none -encoding UTF-8 -d /tmp/classes ` +
		`-cp $J/junit-jupiter-api.jar:$J/junit-jupiter-params.jar:$J/assertj-core.jar:$J/apiguardian-api.jar:` +
		`$J/opentest4j.jar ` +
		`$(find src -name '*.java') && java -jar $J/junit-platform-console-standalone.jar --disable-banner ` +
		`-cp $J/assertj-core.jar:/tmp/classes --scan-class-path /tmp/classes --reports-dir=/tmp/junit; ` +
		`cat /tmp/junit/TEST-junit-jupiter.xml > .anchor-junit.xml`,
	report: ".anchor-junit.xml", cases: javaCases,
}}

// runner is the runner that scores t, or nil: by its command, or, once
// scoring set it, by its report.
func (t Task) runner() *runner {
	for i, r := range runners {
		if t.JUnit == "" && r.command.MatchString(t.Test) || t.JUnit == r.report {
			return &runners[i]
		}
	}
	return nil
}

// pytest tells a task whose command runs pytest: scored test by test.
func (t Task) pytest() bool { return t.JUnit == "" && runners[0].command.MatchString(t.Test) }

var word = regexp.MustCompile(`\w+`)

// plant plants in each hidden test file that declares tests a canary,
// named at random, and returns the command that scores the task and the
// keys of the hidden tests (false) and the canaries (true): a file and a
// name, or for a runner whose report names no file, the name alone.
func (r *runner) plant(files, hidden map[string][]byte) (string, map[string]bool) {
	delete(files, r.report)
	keys, args := map[string]bool{}, ""
	for _, name := range slices.Sorted(maps.Keys(hidden)) {
		defs := r.def.FindAllSubmatch(hidden[name], -1)
		if !r.test.MatchString(name) || len(defs) == 0 { // no tests: a helper, an extension, a conftest.py
			continue
		}
		file := name
		if r.name != "pytest" {
			file = ""
		}
		for _, m := range defs {
			keys[file+" "+string(m[len(m)-1])] = false
		}
		test, src := fmt.Sprintf("test_%x", mrand.Uint32()), files[name]
		if r.name == "cargo" { // last of the file's tests, which run one by one by name: z's past its longest word
			n := 0
			for _, w := range word.FindAll(src, -1) {
				n = max(n, len(w))
			}
			test = strings.Repeat("z", n+1) + test[4:]
		}
		if r.name == "junit" { // inside the class: before its last brace
			src = src[:max(bytes.LastIndexByte(src, '}'), 0)]
		}
		files[name] = fmt.Appendf(slices.Clip(src), r.canary, test, mrand.IntN(90)+10)
		args += " " + quote(name)
		keys[file+" "+test] = true
	}
	return "set --" + args + "; " + r.script, keys
}

// count counts every hidden test, its parametrized cases together: passed
// when each case reported passed. One that did not report failed; other
// tests do not count. A canary that passed marks a forgery, and so does one
// missing where tests of its file passed (a report made up from known
// names).
func (r *runner) count(report []byte, keys map[string]bool) Scored {
	cases, err := r.cases(report)
	s, passed, passedIn := Scored{}, map[string]bool{}, map[string]bool{}
	if err != nil || len(cases) == 0 {
		s.Error = fmt.Sprintf("the %s report is missing or unreadable", r.name)
	}
	for _, c := range cases {
		key := c.File + " " + strings.Split(c.Name, "[")[0]
		for _, known := keys[key]; !known && strings.Contains(key, "/"); _, known = keys[key] {
			key = key[:strings.LastIndex(key, "/")] // Catch2 names a section after its case: case/section
		}
		_, seen := passed[key]
		passed[key] = (passed[key] || !seen) && c.Failure == nil && c.Error == nil && c.Skipped == nil
		passedIn[c.File] = passedIn[c.File] || passed[key]
	}
	for key, canary := range keys {
		_, seen := passed[key]
		if canary && (passed[key] || !seen && passedIn[key[:max(strings.LastIndex(key, " "), 0)]]) {
			why := "forged: the canary " + strings.TrimSpace(key) + " did not fail"
			return Scored{Total: 1, Outcome: OutcomeForged, Error: why}
		}
		s.Passed, s.Total = s.Passed+b2i(!canary && passed[key]), s.Total+b2i(!canary) // canaries count nothing
	}
	s.Total = max(s.Total, 1)
	return s
}

// junitCases reads a JUnit XML report's cases.
func junitCases(report []byte) ([]testCase, error) {
	var doc struct {
		Cases []testCase `xml:"testsuite>testcase"`
		Top   []testCase `xml:"testcase"`
	}
	err := xml.Unmarshal(report, &doc)
	return append(doc.Cases, doc.Top...), err
}

// javaCases reads the console launcher's JUnit XML report, which names a
// method with its parameters: name(args).
func javaCases(report []byte) ([]testCase, error) {
	cases, err := junitCases(report)
	for i, c := range cases {
		cases[i].Name, _, _ = strings.Cut(c.Name, "(")
	}
	return cases, err
}

// cargoCases reads libtest's JSON events, a test's name the last part of
// its path.
func cargoCases(report []byte) ([]testCase, error) {
	var cases []testCase
	for _, line := range bytes.Split(report, []byte("\n")) {
		var e struct{ Type, Event, Name string }
		if json.Unmarshal(line, &e) == nil && e.Type == "test" && e.Event != "started" {
			name := e.Name[strings.LastIndex(e.Name, ":")+1:]
			cases = append(cases, testCase{Name: name, Failure: failed(e.Event != "ok")})
		}
	}
	return cases, nil
}

// jestCases reads jest's JSON report, a test by its title.
func jestCases(report []byte) ([]testCase, error) {
	var doc struct {
		TestResults []struct {
			AssertionResults []struct{ Title, Status string }
		}
	}
	var cases []testCase
	err := json.Unmarshal(report, &doc)
	for _, f := range doc.TestResults {
		for _, a := range f.AssertionResults {
			cases = append(cases, testCase{Name: a.Title, Failure: failed(a.Status != "passed")})
		}
	}
	return cases, err
}

func failed(b bool) *struct{} {
	if b {
		return &struct{}{}
	}
	return nil
}
