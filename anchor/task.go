package anchor

import (
	"bufio"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"time"
)

// Task is one task directory: task.toml, repo/, hidden/, reference/.
type Task struct {
	Dir, ID, Split string
	Prompt, Test   string
	JUnit          string
	Timeout        time.Duration
}

var tomlKey = regexp.MustCompile(`^\s*([A-Za-z_]+)\s*=\s*(.*)$`)

// LoadTask reads task.toml: string keys only, basic, literal or multi-line.
func LoadTask(dir string) (Task, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return Task{}, err
	}
	t := Task{Dir: abs, ID: filepath.Base(abs), Split: filepath.Base(filepath.Dir(abs)), Timeout: 10 * time.Minute}
	if t.Split != "train" && t.Split != "holdout" && t.Split != "sealed" {
		t.Split = "adhoc"
	}
	b, err := os.ReadFile(filepath.Join(abs, "task.toml"))
	if err != nil {
		return t, fmt.Errorf("task %s: %w; a task needs task.toml, repo/ and optionally hidden/", dir, err)
	}
	vals := map[string]string{}
	lines := strings.Split(string(b), "\n")
	for i := 0; i < len(lines); i++ {
		m := tomlKey.FindStringSubmatch(lines[i])
		if m == nil {
			continue
		}
		v := strings.TrimSpace(m[2])
		for _, q := range []string{`"""`, `'''`} {
			if strings.HasPrefix(v, q) {
				body := strings.TrimPrefix(strings.TrimPrefix(v, q), "\n")
				for !strings.Contains(body, q) && i+1 < len(lines) {
					i++
					body += "\n" + lines[i]
				}
				end := strings.Index(body, q)
				if end < 0 {
					return t, fmt.Errorf("task %s: task.toml: unterminated %s string for %s", dir, q, m[1])
				}
				vals[m[1]] = strings.TrimPrefix(body[:end], "\n")
				v = ""
			}
		}
		switch {
		case v == "":
		case strings.HasPrefix(v, `"`):
			var s string
			if err := json.Unmarshal([]byte(v[:strings.LastIndex(v, `"`)+1]), &s); err != nil {
				return t, fmt.Errorf("task %s: task.toml: bad string for %s", dir, m[1])
			}
			vals[m[1]] = s
		case strings.HasPrefix(v, "'"):
			vals[m[1]] = strings.Trim(v, "'")
		}
	}
	t.Prompt, t.Test, t.JUnit = vals["prompt"], vals["test"], vals["junit"]
	if t.Prompt == "" || t.Test == "" {
		return t, fmt.Errorf("task %s: task.toml needs prompt and test", dir)
	}
	if s := vals["timeout"]; s != "" {
		if t.Timeout, err = time.ParseDuration(s); err != nil {
			return t, fmt.Errorf("task %s: task.toml: timeout %q: use a duration like \"120s\"", dir, s)
		}
	}
	if st, err := os.Stat(filepath.Join(abs, "repo")); err != nil || !st.IsDir() {
		return t, fmt.Errorf("task %s has no repo/ folder", dir)
	}
	return t, nil
}

// scoreCommand is the test command as scoring runs it: go test reports JSON.
func (t Task) scoreCommand() string {
	if rest, ok := strings.CutPrefix(strings.TrimSpace(t.Test), "go test"); ok && !strings.Contains(rest, "-json") {
		return "go test -json" + rest
	}
	return t.Test
}

var testFunc = regexp.MustCompile(`(?m)^func (Test\w*)\(\w+ \*testing\.T\)`)

// hiddenTests names the Go tests in hidden/: each must be seen to pass, so a
// run that skips them (a planted TestMain, a build that never ran) fails.
func (t Task) hiddenTests() []string {
	var names []string
	files, _ := walkFiles(filepath.Join(t.Dir, "hidden"))
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			b, _ := os.ReadFile(filepath.Join(t.Dir, "hidden", f))
			for _, m := range testFunc.FindAllStringSubmatch(string(b), -1) {
				names = append(names, m[1])
			}
		}
	}
	return names
}

// Score counts passed and total tests from the scoring run's output: go test
// -json events, a JUnit XML report, or the exit status. Skips never pass; a
// suite that never ran is one failure.
func Score(t Task, out []byte, exit int, report []byte) (passed, total int) {
	switch {
	case t.JUnit != "":
		passed, total = scoreJUnit(report)
	case t.scoreCommand() != t.Test || strings.Contains(t.Test, "-json"):
		passed, total = scoreGoJSON(out, t.hiddenTests())
	default:
		total = 1
		if exit == 0 {
			passed = 1
		}
	}
	if exit != 0 && passed == total {
		total++ // the command failed for a reason no test reported
	}
	return passed, max(total, 1)
}

func scoreGoJSON(out []byte, hidden []string) (passed, total int) {
	type ev struct{ Action, Package, Test string }
	final := map[string]string{} // package/test -> last action
	ran := map[string]bool{}     // packages with test events
	var pkgFails []string
	sc := bufio.NewScanner(strings.NewReader(string(out)))
	sc.Buffer(nil, 16<<20)
	for sc.Scan() {
		var e ev
		if json.Unmarshal(sc.Bytes(), &e) != nil || (e.Action != "pass" && e.Action != "fail" && e.Action != "skip") {
			continue
		}
		if e.Test == "" {
			if e.Action == "fail" {
				pkgFails = append(pkgFails, e.Package)
			}
			continue
		}
		final[e.Package+"\x00"+e.Test] = e.Action
		ran[e.Package] = true
	}
	seen := map[string]bool{}
	for k, a := range final {
		total++
		seen[k[strings.Index(k, "\x00")+1:]] = true
		if a == "pass" {
			passed++
		}
	}
	for _, p := range pkgFails {
		if !ran[p] {
			total++ // the package failed before any test ran
		}
	}
	for _, h := range hidden {
		if !seen[h] {
			total++ // a hidden test that never reported: it did not run
		}
	}
	return passed, total
}

func scoreJUnit(report []byte) (passed, total int) {
	type testcase struct {
		Failure *struct{} `xml:"failure"`
		Error   *struct{} `xml:"error"`
		Skipped *struct{} `xml:"skipped"`
	}
	var doc struct {
		Cases  []testcase `xml:"testcase"`
		Suites []struct {
			Cases []testcase `xml:"testcase"`
		} `xml:"testsuite"`
	}
	if xml.Unmarshal(report, &doc) != nil {
		return 0, 1
	}
	cases := doc.Cases
	for _, s := range doc.Suites {
		cases = append(cases, s.Cases...)
	}
	for _, c := range cases {
		total++
		if c.Failure == nil && c.Error == nil && c.Skipped == nil {
			passed++
		}
	}
	return passed, total
}
