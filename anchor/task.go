package anchor

import (
	"cmp"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// Task is one task folder: task.toml, repo/, hidden/, reference/. Its
// group (task.toml's group, else its id) is the gate's unit: tasks that
// rise and fall together, such as variants of one kind, count once.
type Task struct {
	Dir, ID, Split, Group, Prompt, Test, JUnit string
	Timeout                                    time.Duration
}

// LoadTask reads a task folder. The split is the name of the folder the
// task is in.
func LoadTask(dir string) (Task, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return Task{}, err
	}
	t := Task{Dir: abs, ID: filepath.Base(abs), Split: filepath.Base(filepath.Dir(abs))}
	t.Timeout = 10 * time.Minute
	b, err := os.ReadFile(filepath.Join(abs, "task.toml"))
	if err != nil {
		return t, fmt.Errorf("task %s: %w (see tasks/README.md for the format)", dir, err)
	}
	vals, err := parseTOML(string(b))
	if err != nil {
		return t, fmt.Errorf("task %s: task.toml %w (see tasks/README.md for the format)", dir, err)
	}
	t.Prompt, t.Test, t.JUnit, t.Group = vals["prompt"], vals["test"], vals["junit"], cmp.Or(vals["group"], t.ID)
	if t.Prompt == "" || t.Test == "" {
		return t, fmt.Errorf("task %s: task.toml needs prompt and test strings", dir)
	}
	if s := vals["timeout"]; s != "" {
		t.Timeout, err = time.ParseDuration(s)
	}
	if err != nil || t.Timeout <= 0 {
		return t, fmt.Errorf("task %s: timeout %q is not a positive duration like \"120s\"", dir, vals["timeout"])
	}
	return t, nil
}

var tomlPair = regexp.MustCompile(`(?m)^[ \t]*([A-Za-z0-9_-]+)[ \t]*=[ \t]*(?:` +
	`"""\r?\n?((?:[^\\]|\\[\s\S])*?"{0,2})"""|'''\r?\n?([\s\S]*?'{0,2})'''|` +
	`"((?:[^"\\\n]|\\.)*)"|'([^'\n]*)')[ \t]*(?:#.*)?$`)
var tomlBlank = regexp.MustCompile(`(?m)^[ \t]*(#.*)?\r?$`)

// parseTOML reads a TOML document made of string keys only, in every string
// form TOML allows: basic, literal, multi-line basic (escapes and
// line-ending backslashes) and multi-line literal. Anything but those,
// comments and blank lines is an error naming its line.
func parseTOML(s string) (map[string]string, error) {
	vals := map[string]string{}
	rest := []byte(s)
	for _, m := range tomlPair.FindAllStringSubmatchIndex(s, -1) {
		key, v := s[m[2]:m[3]], ""
		for g := 4; g <= 10; g += 2 { // the one string form that matched
			if m[g] >= 0 {
				v = s[m[g]:m[g+1]]
			}
		}
		var err error
		if m[4] >= 0 || m[8] >= 0 {
			v, err = unescape(v)
		}
		line := strings.Count(s[:m[0]], "\n") + 1
		if _, dup := vals[key]; dup {
			err = fmt.Errorf("%s is set twice", key)
		}
		if err != nil {
			return nil, fmt.Errorf("line %d: %w", line, err)
		}
		vals[key] = v
		for i := m[0]; i < m[1]; i++ {
			if rest[i] != '\n' {
				rest[i] = ' '
			}
		}
	}
	for i, l := range strings.Split(string(rest), "\n") {
		if strings.Contains(l, `"""`) || strings.Contains(l, "'''") {
			return nil, fmt.Errorf("line %d: a multi-line string starts here and is never closed", i+1)
		} else if !tomlBlank.MatchString(l) {
			return nil, fmt.Errorf("line %d: want key = \"string\" (only string values are read)", i+1)
		}
	}
	return vals, nil
}

// unescape processes the escapes of a TOML basic string, and in multi-line
// ones the line-ending backslash, which trims the newline and the
// whitespace after it.
func unescape(raw string) (string, error) {
	var b strings.Builder
	for i := 0; i < len(raw); i++ {
		c := raw[i]
		if c != '\\' {
			b.WriteByte(c)
			continue
		}
		if i+1 == len(raw) {
			return "", fmt.Errorf("a string ends in a backslash")
		}
		i++
		simple := map[byte]string{'b': "\b", 't': "\t", 'n': "\n", 'f': "\f", 'r': "\r", '"': "\"", '\\': "\\",
			'e': "\x1b"}
		if r, ok := simple[raw[i]]; ok {
			b.WriteString(r)
			continue
		}
		if n := map[byte]int{'u': 4, 'U': 8}[raw[i]]; n > 0 { // hex digits of a \u or \U escape
			code, err := strconv.ParseUint(raw[i+1:min(i+1+n, len(raw))], 16, 32)
			if err != nil || i+1+n > len(raw) {
				return "", fmt.Errorf("bad unicode escape \\%c", raw[i])
			}
			b.WriteRune(rune(code))
			i += n
			continue
		}
		rest := strings.TrimLeft(raw[i:], " \t\r")
		if !strings.HasPrefix(rest, "\n") {
			return "", fmt.Errorf("unknown escape \\%c", raw[i])
		}
		trimmed := strings.TrimLeft(rest, " \t\r\n")
		i = len(raw) - len(trimmed) - 1
	}
	return b.String(), nil
}

// ScoreCommand is the test command as scoring runs it: every go test in it
// reports JSON and starts each test binary through /opt/score/hide (see
// compileTests).
func (t Task) ScoreCommand() string {
	if !t.goTest() { // a runner's command, or no go test at all
		return t.Test
	}
	// " go test": a go test that begins a word, as cargo test's does not
	return strings.ReplaceAll(" "+t.Test, " go test", " go test -json -exec /opt/score/hide")[1:]
}

// goTest tells a task whose tests are counted from go test's JSON events.
func (t Task) goTest() bool {
	return t.JUnit == "" && t.runner() == nil && strings.Contains(" "+t.Test, " go test")
}
