package exercism

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"ratchet/anchor"
	"ratchet/tasks"
)

// A miniature exercism tree, written for this test: a Go and a Python
// exercise of one name (so both land in one split), a second Python one,
// a Java one, and one in a language no runner scores, skipped.
func miniTree(t *testing.T, layout string) string {
	t.Helper()
	root := t.TempDir()
	goConfig := `{"files": {"solution": ["tally.go"], "test": ["tally_test.go"], "example": [".meta/example.go"], "editor": ["cases_test.go"]}}`
	pyConfig := `{"files": {"solution": ["tally.py"], "test": ["tally_test.py"], "example": [".meta/example.py"]}}`
	files := map[string]string{
		"go/exercises/practice/tally/.docs/instructions.md":        "# Tally\n\nCount the marks `|` in a string.\n",
		"go/exercises/practice/tally/.docs/instructions.append.md": "Spaces are not marks.\n",
		"go/exercises/practice/tally/.meta/config.json":            goConfig,
		"go/exercises/practice/tally/.meta/example.go":             "package tally\n\nimport \"strings\"\n\n// Count counts marks.\nfunc Count(s string) int { return strings.Count(s, \"|\") }\n",
		"go/exercises/practice/tally/tally.go":                     "package tally\n\n// Count counts marks.\nfunc Count(s string) int { return 0 }\n",
		"go/exercises/practice/tally/cases_test.go":                "package tally\n\nvar cases = []struct {\n\tin   string\n\twant int\n}{{\"\", 0}, {\"||\", 2}, {\"| |\", 2}}\n",
		"go/exercises/practice/tally/tally_test.go": "package tally\n\nimport \"testing\"\n\nfunc TestCount(t *testing.T) {\n\tfor _, c := range cases {\n" +
			"\t\tif got := Count(c.in); got != c.want {\n\t\t\tt.Errorf(\"Count(%q) = %d, want %d\", c.in, got, c.want)\n\t\t}\n\t}\n}\n",
		"go/exercises/practice/tally/go.mod":                    "module tally\n\ngo 1.22\n",
		"python/exercises/practice/tally/.docs/instructions.md": "# Tally\n\nCount the marks `|` in a string.\n",
		"python/exercises/practice/tally/.meta/config.json":     pyConfig,
		"python/exercises/practice/tally/.meta/example.py":      "def count(s):\n    return s.count('|')\n",
		"python/exercises/practice/tally/tally.py":              "def count(s):\n    pass\n",
		"python/exercises/practice/tally/tally_test.py": "import unittest\n\nfrom tally import count\n\n\nclass TallyTest(unittest.TestCase):\n" +
			"    def test_empty(self):\n        self.assertEqual(count(''), 0)\n\n    def test_two(self):\n        self.assertEqual(count('| |'), 2)\n",
		"python/exercises/practice/echo/.docs/instructions.md": "# Echo\n\nReturn what you are given, twice, \"quoted\" \\ as is.\n",
		"python/exercises/practice/echo/.meta/config.json":     `{"files": {"solution": ["echo.py"], "test": ["test_echo.py"], "exemplar": [".meta/exemplar.py"]}}`,
		"python/exercises/practice/echo/.meta/exemplar.py":     "def twice(s):\n    return s + s\n",
		"python/exercises/practice/echo/echo.py":               "def twice(s):\n    return s\n",
		"python/exercises/practice/echo/test_echo.py":          "from echo import twice\n\n\ndef test_twice():\n    assert twice('ab') == 'abab'\n",
		"go/exercises/practice/tester/.meta/.skip_tests":       "",
		"go/exercises/practice/tester/.meta/config.json":       goConfig,
		"cobol/exercises/practice/tally/.docs/instructions.md": "# Tally\n",
		"cobol/exercises/practice/tally/.meta/config.json":     goConfig,
		"java/exercises/practice/tally/.docs/instructions.md":  "# Tally\n\nCount the marks `|` in a string.\n",
		"java/exercises/practice/tally/.meta/config.json": `{"files": {"solution": ["src/main/java/Tally.java"], ` +
			`"test": ["src/test/java/TallyTest.java"], "example": [".meta/src/reference/java/Tally.java"]}}`,
		"java/exercises/practice/tally/.meta/src/reference/java/Tally.java": "public class Tally {\n" +
			"    public static int count(String s) { return Marks.in(s); }\n}\n",
		"java/exercises/practice/tally/.meta/src/reference/java/Marks.java": "class Marks {\n" +
			"    static int in(String s) { return (int) s.chars().filter(c -> c == '|').count(); }\n}\n",
		"java/exercises/practice/tally/src/main/java/Tally.java": "public class Tally {\n" +
			"    public static int count(String s) { return 0; }\n}\n",
		"java/exercises/practice/tally/src/test/java/TallyTest.java": "import org.junit.jupiter.api.Disabled;\n" +
			"import org.junit.jupiter.api.Test;\n\nimport static org.assertj.core.api.Assertions.assertThat;\n\n" +
			"public class TallyTest {\n    @Test\n    public void none() {\n        assertThat(Tally.count(\"\")).isEqualTo(0);\n    }\n\n" +
			"    @Disabled(\"Remove to run test\")\n    @Test\n    public void two() {\n" +
			"        assertThat(Tally.count(\"| |\")).isEqualTo(2);\n    }\n}\n",
		"java/exercises/practice/tally/build.gradle": "apply plugin: 'java'\n",
	}
	for name, body := range files {
		if layout == "track" { // one track: the python folder's contents at the root
			rest, ok := strings.CutPrefix(name, "python/")
			if !ok {
				continue
			}
			name = rest
		}
		p := filepath.Join(root, name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if layout == "track" {
		os.WriteFile(filepath.Join(root, "config.json"), []byte(`{"slug": "python"}`), 0o644)
	}
	return root
}

func TestImportPolyglot(t *testing.T) {
	out := filepath.Join(t.TempDir(), "suite")
	res, err := Import(miniTree(t, "polyglot"), out)
	if err != nil {
		t.Fatal(err)
	}
	var table bytes.Buffer
	res.Print(&table)
	t.Log("\n" + table.String())
	if res.Written["go"] != 1 || res.Written["python"] != 2 || res.Written["java"] != 1 || len(res.Skipped["go"]) != 1 {
		t.Errorf("written %v, skipped %v; want go 1 (and 1 skipped: .skip_tests), python 2, java 1", res.Written, res.Skipped)
	}
	if !strings.Contains(table.String(), "no test runner for cobol in the sandbox") {
		t.Errorf("the table does not say why cobol was skipped:\n%s", table.String())
	}
	// Java: every hidden test runs, and the reference tree lands in src/main.
	javaTask := filepath.Join(out, split("tally"), "java-tally")
	hidden, _ := os.ReadFile(filepath.Join(javaTask, "hidden/src/test/java/TallyTest.java"))
	public, _ := os.ReadFile(filepath.Join(javaTask, "repo/src/test/java/TallyTest.java"))
	if strings.Contains(string(hidden), "@Disabled") || !strings.Contains(string(public), "@Disabled") {
		t.Errorf("the hidden Java tests should run all, the public ones stay as shipped:\n%s", hidden)
	}
	for _, want := range []string{"reference/src/main/java/Tally.java", "reference/src/main/java/Marks.java"} {
		if _, err := os.Stat(filepath.Join(javaTask, want)); err != nil {
			t.Errorf("java-tally: %v", err)
		}
	}
	goTask, pyTask := filepath.Join(out, split("tally"), "go-tally"), filepath.Join(out, split("tally"), "python-tally")
	for _, want := range []string{"repo/tally.go", "repo/tally_test.go", "repo/cases_test.go", "repo/go.mod", "hidden/tally_test.go", "reference/tally.go"} {
		if _, err := os.Stat(filepath.Join(goTask, want)); err != nil {
			t.Errorf("go-tally: %v", err)
		}
	}
	for _, gone := range []string{"repo/.meta", "repo/.docs", "reference/example.go"} {
		if _, err := os.Stat(filepath.Join(goTask, gone)); err == nil {
			t.Errorf("go-tally has %s", gone)
		}
	}
	for _, dir := range []string{goTask, pyTask} {
		task, err := anchor.LoadTask(dir)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(task.Prompt, "Count the marks `|` in a string.") || !strings.Contains(task.Prompt, "tally_test") {
			t.Errorf("%s: prompt %q lacks the instructions or the files", dir, task.Prompt)
		}
		toml, _ := os.ReadFile(filepath.Join(dir, "task.toml"))
		if !strings.Contains(string(toml), "group = \"tally\"") {
			t.Errorf("%s: task.toml has no group: %s", dir, toml)
		}
	}
	goT, _ := anchor.LoadTask(goTask)
	if !strings.Contains(goT.Prompt, "Spaces are not marks.") {
		t.Errorf("the appendix of the instructions is not in the prompt: %q", goT.Prompt)
	}
	echo, err := anchor.LoadTask(filepath.Join(out, split("echo"), "python-echo"))
	if err != nil || !strings.Contains(echo.Prompt, `"quoted" \ as is`) {
		t.Errorf("echo: %v, prompt %q", err, echo.Prompt)
	}
	// Validated like any other suite, in the anchor's sandbox.
	if testing.Short() {
		t.Skip("validating the suite runs the anchor's sandboxes: slow; run without -short")
	}
	var report bytes.Buffer
	results, err := tasks.Validate(context.Background(), out, 2, &report)
	t.Log("\n" + report.String())
	if err != nil || len(results) != 4 {
		t.Fatalf("validate: %v, %d results", err, len(results))
	}
	for _, r := range results {
		if r.Problem != "" {
			t.Errorf("%s/%s is bad: %s", r.Split, r.ID, r.Problem)
		}
	}
}

func TestImportOneTrack(t *testing.T) {
	out := filepath.Join(t.TempDir(), "suite")
	res, err := Import(miniTree(t, "track"), out)
	if err != nil || res.Written["python"] != 2 || len(res.Skipped) != 0 {
		t.Fatalf("one python track: %v, written %v, skipped %v", err, res.Written, res.Skipped)
	}
	if _, err := anchor.LoadTask(filepath.Join(out, split("tally"), "python-tally")); err != nil {
		t.Error(err)
	}
}

// Bad input is one line that says what to do, and nothing is written.
func TestImportBadInput(t *testing.T) {
	tmp := t.TempDir()
	existing := filepath.Join(tmp, "existing")
	os.Mkdir(existing, 0o755)
	rustOnly := t.TempDir()
	os.MkdirAll(filepath.Join(rustOnly, "rust", "exercises", "practice", "x", ".meta"), 0o755)
	for _, tt := range []struct{ name, dir, out, want string }{
		{"no such folder", filepath.Join(tmp, "nope"), filepath.Join(tmp, "a"), "is not a folder"},
		{"no exercises", t.TempDir(), filepath.Join(tmp, "b"), "no exercises under"},
		{"the suite exists", miniTree(t, "polyglot"), existing, "already exists"},
		{"nothing importable", rustOnly, filepath.Join(tmp, "c"), "no exercise of"},
	} {
		_, err := Import(tt.dir, tt.out)
		if err == nil || !strings.Contains(err.Error(), tt.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: error %v, want one line with %q", tt.name, err, tt.want)
		}
		if tt.out != existing {
			if _, err := os.Stat(tt.out); err == nil {
				t.Errorf("%s: %s was written", tt.name, tt.out)
			}
		}
	}
	if left, _ := filepath.Glob(filepath.Join(tmp, ".import-*")); len(left) != 0 {
		t.Errorf("left behind: %v", left)
	}
	if entries, _ := os.ReadDir(existing); len(entries) != 0 {
		t.Errorf("the existing suite was written into: %v", entries)
	}
}

// Issue #33's importer attacks, from a benchmark checkout the operator does
// not control: a solution name that climbs out of the task, and links (git
// keeps them) to host files where the importer reads instructions, the
// exercise's config, the track's config and a whole exercise folder. None of
// them writes outside --out or puts a host byte into the suite; each
// exercise it cannot import is skipped with its reason.
func TestImportStaysInsideItsFolders(t *testing.T) {
	host := t.TempDir() // stands for the operator's files
	secret := "HOST-SECRET-9f3a"
	os.WriteFile(filepath.Join(host, "notes.md"), []byte("# Notes\n"+secret+"\n"), 0o644)
	os.WriteFile(filepath.Join(host, "config.json"), []byte(`{"files": {"solution": ["tally.py"], "test": ["tally_test.py"], "example": [".meta/example.py"]}, "x": "`+secret+`"}`), 0o644)
	os.WriteFile(filepath.Join(host, "track.json"), []byte(`{"slug": "python", "x": "`+secret+`"}`), 0o644)
	hostEx := filepath.Join(host, "elsewhere")
	os.MkdirAll(filepath.Join(hostEx, ".meta"), 0o755)
	os.MkdirAll(filepath.Join(hostEx, ".docs"), 0o755)
	os.WriteFile(filepath.Join(hostEx, ".docs", "instructions.md"), []byte(secret), 0o644)
	os.WriteFile(filepath.Join(hostEx, ".meta", "config.json"), []byte(`{"files": {"solution": ["a.py"], "test": ["a_test.py"], "example": [".meta/e.py"]}}`), 0o644)
	os.WriteFile(filepath.Join(hostEx, ".meta", "e.py"), []byte(secret), 0o644)
	os.WriteFile(filepath.Join(hostEx, "a.py"), []byte(secret), 0o644)
	os.WriteFile(filepath.Join(hostEx, "a_test.py"), []byte(secret), 0o644)

	dir := miniTree(t, "track")
	practice := filepath.Join(dir, "exercises", "practice")
	clone := func(name string) string { // a copy of the tally exercise under another name
		ex := filepath.Join(practice, name)
		files, err := anchor.ReadTree(filepath.Join(practice, "tally"), false)
		if err != nil {
			t.Fatal(err)
		}
		if err := anchor.WriteTree(ex, files); err != nil {
			t.Fatal(err)
		}
		return ex
	}
	climb := strings.Repeat("../", 12) + strings.TrimPrefix(filepath.Join(host, "escaped.py"), "/")
	os.WriteFile(filepath.Join(clone("climb"), ".meta", "config.json"),
		[]byte(`{"files": {"solution": ["`+climb+`"], "test": ["tally_test.py"], "example": [".meta/example.py"]}}`), 0o644)
	ex := clone("linkdocs")
	os.Remove(filepath.Join(ex, ".docs", "instructions.md"))
	os.Symlink(filepath.Join(host, "notes.md"), filepath.Join(ex, ".docs", "instructions.md"))
	ex = clone("linkappend")
	os.Symlink(filepath.Join(host, "notes.md"), filepath.Join(ex, ".docs", "instructions.append.md"))
	ex = clone("linkconfig")
	os.Remove(filepath.Join(ex, ".meta", "config.json"))
	os.Symlink(filepath.Join(host, "config.json"), filepath.Join(ex, ".meta", "config.json"))
	os.Symlink(hostEx, filepath.Join(practice, "linkfolder"))
	os.Remove(filepath.Join(dir, "config.json"))
	os.Symlink(filepath.Join(host, "track.json"), filepath.Join(dir, "config.json"))

	out := filepath.Join(t.TempDir(), "suite")
	res, err := Import(dir, out)
	if err != nil {
		t.Fatal(err)
	}
	var table bytes.Buffer
	res.Print(&table)
	t.Log("\n" + table.String())
	if _, err := os.Lstat(filepath.Join(host, "escaped.py")); err == nil {
		t.Error("the climbing solution name wrote outside --out")
	}
	files, err := anchor.ReadTree(out, false)
	if err != nil {
		t.Fatal(err)
	}
	for name, body := range files {
		if strings.Contains(string(body), secret) {
			t.Errorf("%s holds a host file's bytes", name)
		}
		if strings.Contains(name, "climb") || strings.Contains(name, "linkconfig") || strings.Contains(name, "linkfolder") ||
			strings.Contains(name, "linkdocs") {
			t.Errorf("%s was imported from an exercise that should be skipped", name)
		}
	}
	// The track's config.json is a link: the language comes from the files.
	// tally, echo and linkappend (its appendix left out) are imported.
	skipped := 0
	for _, n := range res.Skipped["python"] {
		skipped += n
	}
	if res.Written["python"] != 3 || skipped != 4 {
		t.Errorf("written %v, skipped %v; want 3 python tasks and 4 skipped", res.Written, res.Skipped)
	}
	for _, why := range []string{"outside the exercise", "a link, or not JSON", "missing or a link", "leads out of the benchmark"} {
		if !strings.Contains(table.String(), why) {
			t.Errorf("no exercise skipped because %q:\n%s", why, table.String())
		}
	}
}

// An exercise whose code needs what the sandbox cannot have offline is
// skipped with the reason: a Java library from Maven Central, or a crate
// Debian packages in no version the example's requirement takes.
func TestOfflineNeeds(t *testing.T) {
	reg := t.TempDir()
	for _, d := range []string{"anyhow-1.0.69", "num-traits-0.2.15", "rand-0.8.5", "time-0.3.9", "time-macros-0.2.4"} {
		os.MkdirAll(filepath.Join(reg, d), 0o755)
	}
	old := cargoRegistry
	cargoRegistry = reg
	defer func() { cargoRegistry = old }()
	for _, c := range []struct {
		lang, file, body string
		why              string // a phrase of the reason, "" for none
	}{
		{"rust", "Cargo.toml", "[package]\nname = \"x\"\n\n[dependencies]\ntime = \"0.3\"\n", ""},
		{"rust", "Cargo.toml", "[package]\nname = \"x\"\n\n[dependencies]\nanyhow = { version = \"1.0\" }\n", ""},
		{"rust", ".meta/Cargo-example.toml", "[dependencies]\nnum-traits = \"0.2.16\"\n", "num-traits 0.2.16"},
		{"rust", ".meta/Cargo-example.toml", "[dependencies]\nrand = \"0.3.12\"\n", "rand 0.3.12"},
		{"rust", ".meta/Cargo-example.toml", "[dependencies]\ntime = \"0.3.1\"\n\n[dev-dependencies]\nregex = \"1\"\n", ""},
		{"rust", "Cargo.toml", "[package]\nname = \"x\"\n", ""},
		{"java", "build.gradle", "dependencies {\n    implementation \"org.json:json:20190722\"\n" +
			"    testImplementation \"org.assertj:assertj-core:3.25.1\"\n}\n", "org.json:json"},
		{"java", "build.gradle", "dependencies {\n    testImplementation \"org.junit.jupiter:junit-jupiter\"\n}\n", ""},
	} {
		why := offline(c.lang, map[string][]byte{c.file: []byte(c.body)})
		if c.why == "" && why != "" || c.why != "" && !strings.Contains(why, c.why) {
			t.Errorf("%s %s %q: %q, want a reason naming %q", c.lang, c.file, c.body, why, c.why)
		}
	}
}
