// Package exercism imports exercises in exercism's layout as a Ratchet task
// suite: one track (exercises/practice/NAME/) or the Aider polyglot
// benchmark's several (LANG/exercises/practice/NAME/). Each exercise gives
// one task: its instructions as the prompt, its stub and tests as repo/,
// its tests again as hidden/, its example solution as reference/, and a
// split drawn from a stable hash of the exercise's name, so that one
// exercise lands in the same split in every language.
package exercism

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"text/tabwriter"

	"ratchet/anchor"
	"ratchet/tasks"
)

// Result is what one import did, per language.
type Result struct {
	Written map[string]int            // tasks written, by language
	Skipped map[string]map[string]int // exercises skipped, by language and reason
}

// runners are the languages whose tests the anchor scores offline in its
// sandbox, and their test commands (the anchor runs its own command for
// each; see anchor/runners.go): the agent runs these.
var runners = map[string]string{
	"go":         "go test ./...",
	"python":     "python3 -m pytest",
	"rust":       "cargo test -- --include-ignored",
	"javascript": "npx jest",
	"cpp":        "g++ -std=c++17 -DEXERCISM_RUN_ALL_TESTS -I. -o /tmp/tests *.cpp test/tests-main.cpp && /tmp/tests",
	"java":       "gradle test",
}

// unskip takes out of a language's test files what skips a test until the
// student removes it, as exercism's own test runners do, so that every
// hidden test runs (Rust's #[ignore] and C++'s EXERCISM_RUN_ALL_TESTS are
// the runner's to lift), and C++'s benchmark, which checks nothing.
var unskip = map[string]struct {
	skip *regexp.Regexp
	with string
}{
	"javascript": {regexp.MustCompile(`\bx(test|it)\(`), "$1("},
	"java":       {regexp.MustCompile(`@Disabled\b(\s*\([^)]*\))?`), ""},
	"cpp":        {regexp.MustCompile(`(?s)#if defined\(EXERCISM_INCLUDE_BENCHMARK\).*?#endif\n?`), ""},
}

// config is the part of .meta/config.json the import reads.
type config struct {
	Files struct {
		Solution, Test, Example, Exemplar, Editor []string
	}
}

// Import reads the exercism tree at dir and writes a suite at out, which
// must not exist yet. Nothing is written when it fails: the suite is built
// beside out and moved into place at the end.
func Import(dir, out string) (Result, error) {
	res := Result{Written: map[string]int{}, Skipped: map[string]map[string]int{}}
	exercises, err := find(dir)
	if err != nil {
		return res, err
	}
	if _, err := os.Lstat(out); err == nil {
		return res, fmt.Errorf("%s already exists: give --out a new folder", out)
	}
	tmp, err := os.MkdirTemp(filepath.Dir(filepath.Clean(out)), ".import-")
	if err != nil {
		return res, fmt.Errorf("cannot write the suite beside %s: %w", out, err)
	}
	defer os.RemoveAll(tmp)
	root, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return res, err
	}
	for _, ex := range exercises {
		lang, name := ex[0], ex[1]
		var task map[string][]byte
		reason := "its folder is reached through a link that leads out of the benchmark"
		if within(root, filepath.Join(dir, ex[2])) {
			task, reason = build(lang, filepath.Join(dir, ex[2]))
		}
		if reason == "" {
			err = anchor.WriteTree(filepath.Join(tmp, split(name), lang+"-"+name), task)
		}
		if err != nil {
			return res, fmt.Errorf("write %s-%s: %w", lang, name, err)
		}
		if reason != "" {
			if res.Skipped[lang] == nil {
				res.Skipped[lang] = map[string]int{}
			}
			res.Skipped[lang][reason]++
			continue
		}
		res.Written[lang]++
	}
	if len(res.Written) == 0 {
		return res, fmt.Errorf("no exercise of %s could be imported (%s); Go, Python, Rust, JavaScript, C++ and Java exercises can", dir, summary(res))
	}
	return res, os.Rename(tmp, out)
}

// find lists the exercises under dir as language, name and path below dir.
func find(dir string) ([][3]string, error) {
	st, err := os.Stat(dir)
	if err != nil || !st.IsDir() {
		return nil, fmt.Errorf("%s is not a folder: give an exercism track or the polyglot benchmark's checkout", dir)
	}
	var found [][3]string
	tracks, _ := filepath.Glob(filepath.Join(dir, "*", "exercises", "practice", "*", ".meta"))
	single, _ := filepath.Glob(filepath.Join(dir, "exercises", "practice", "*", ".meta"))
	for _, meta := range append(tracks, single...) {
		ex := filepath.Dir(meta)
		rel, _ := filepath.Rel(dir, ex)
		lang := strings.Split(filepath.ToSlash(rel), "/")[0]
		if lang == "exercises" {
			lang = trackLanguage(dir, ex)
		}
		found = append(found, [3]string{lang, filepath.Base(ex), rel})
	}
	if len(found) == 0 {
		return nil, fmt.Errorf("no exercises under %s: want exercises/practice/NAME/.meta or LANG/exercises/practice/NAME/.meta", dir)
	}
	return found, nil
}

// trackLanguage names the language of a one-track tree: the track's
// config.json slug, else what the exercise's files show.
func trackLanguage(dir, ex string) string {
	var track struct{ Slug string }
	if b, err := readRegular(filepath.Join(dir, "config.json")); err == nil && json.Unmarshal(b, &track) == nil && track.Slug != "" {
		return track.Slug
	}
	for file, lang := range map[string]string{"go.mod": "go", "Cargo.toml": "rust", "package.json": "javascript",
		"CMakeLists.txt": "cpp", "build.gradle": "java"} {
		if _, err := os.Stat(filepath.Join(ex, file)); err == nil {
			return lang
		}
	}
	if m, _ := filepath.Glob(filepath.Join(ex, "*.py")); m != nil {
		return "python"
	}
	return "unknown"
}

// within says whether p, its links resolved, lies inside root (a folder
// whose links are already resolved).
func within(root, p string) bool {
	real, err := filepath.EvalSymlinks(p)
	if err != nil {
		return false
	}
	rel, err := filepath.Rel(root, real)
	return err == nil && filepath.IsLocal(rel)
}

// readRegular reads the file at p when it is a regular file, never through
// a link.
func readRegular(p string) ([]byte, error) {
	f, err := os.OpenFile(p, os.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if st, err := f.Stat(); err != nil || !st.Mode().IsRegular() {
		return nil, fmt.Errorf("%s is not a regular file", p)
	}
	return io.ReadAll(f)
}

// split draws train, holdout or sealed from the exercise's name alone:
// about 55, 35 and 10 in 100.
func split(name string) string {
	sum := sha256.Sum256([]byte(name))
	switch n := binary.BigEndian.Uint64(sum[:8]) % 100; {
	case n < 55:
		return "train"
	case n < 90:
		return "holdout"
	}
	return "sealed"
}

// build makes one exercise's task files, or says why it is skipped.
func build(lang, ex string) (map[string][]byte, string) {
	command, ok := runners[lang]
	if !ok {
		return nil, "no test runner for " + lang + " in the sandbox"
	}
	// Every file is read from the exercise's tree, which holds regular files
	// only: a link (git keeps them) never brings a host file into a task.
	tree, err := anchor.ReadTree(ex, false)
	if err != nil {
		return nil, "unreadable: " + err.Error()
	}
	if _, ok := tree[".meta/.skip_tests"]; ok {
		return nil, "marked .meta/.skip_tests: the exercise asks for tests, not for code they test"
	}
	var cfg config
	if b, ok := tree[".meta/config.json"]; !ok || json.Unmarshal(b, &cfg) != nil {
		return nil, ".meta/config.json is missing, a link, or not JSON"
	}
	examples := append(cfg.Files.Example, cfg.Files.Exemplar...)
	if len(cfg.Files.Solution) == 0 || len(cfg.Files.Test) == 0 || len(examples) == 0 {
		return nil, ".meta/config.json names no solution, test or example file"
	}
	for _, name := range slices.Concat(cfg.Files.Solution, cfg.Files.Test, examples) {
		if !inside(name) {
			return nil, ".meta/config.json names a file outside the exercise"
		}
	}
	if why := offline(lang, tree); why != "" {
		return nil, why
	}
	task := map[string][]byte{}
	for name, body := range tree {
		if top := strings.Split(name, "/")[0]; !strings.HasPrefix(top, ".") {
			task["repo/"+name] = body
		}
	}
	if b, ok := tree[".meta/Cargo-example.toml"]; ok && lang == "rust" { // the crates its example uses
		task["repo/Cargo.toml"] = b
	}
	for _, name := range cfg.Files.Test {
		body, ok := tree[name]
		if !ok {
			return nil, "a test file named in .meta/config.json is missing"
		}
		if u, ok := unskip[lang]; ok {
			body = u.skip.ReplaceAll(body, []byte(u.with))
		}
		task["hidden/"+name] = body
	}
	for name, body := range tree {
		if lang == "cpp" && strings.HasPrefix(name, "test/") { // Catch2 and its main, the task's own
			task["hidden/"+name] = body
		}
		// Java's reference tree mirrors src/main, its config naming only
		// some; a file the stub already holds as it is stays the stub's.
		rest, ok := strings.CutPrefix(name, ".meta/src/reference/")
		if ok && lang == "java" && !bytes.Equal(tree["src/main/"+rest], body) {
			task["reference/src/main/"+rest] = body
		}
	}
	for i, name := range examples {
		body, ok := tree[name]
		if !ok {
			return nil, "an example file named in .meta/config.json is missing"
		}
		// An example stands in for the solution file of its name, or of its
		// place; Java's reference tree mirrors src/main.
		target := path.Base(name)
		if rest, ok := strings.CutPrefix(name, ".meta/src/reference/"); ok {
			target = "src/main/" + rest
		} else if _, stub := tree[target]; !stub && i < len(cfg.Files.Solution) {
			target = cfg.Files.Solution[i]
			for _, sol := range cfg.Files.Solution { // C++: example.h is the header, whatever the order
				if path.Ext(sol) == path.Ext(name) {
					target = sol
					break
				}
			}
		}
		task["reference/"+target] = body
	}
	prompt, err := instructions(tree, cfg.Files.Solution, cfg.Files.Test)
	if err != nil {
		return nil, err.Error()
	}
	task["task.toml"] = fmt.Appendf(nil, "prompt = %s\ntest = %s\ngroup = %s\n", tasks.TOMLString(prompt),
		tasks.TOMLString(command), tasks.TOMLString(filepath.Base(ex)))
	return task, ""
}

// cargoRegistry is where Debian's packaged crates are, the one registry
// the anchor's cargo reads (offline).
var cargoRegistry = "/usr/share/cargo/registry"

var (
	gradleDep = regexp.MustCompile(`(?m)^\s*(?:implementation|compile|api|runtimeOnly)\s*\(?\s*["']([^"']+)["']`)
	crateDep  = regexp.MustCompile(`(?m)^([A-Za-z0-9_-]+)\s*=\s*(?:"([^"]+)"|\{[^}\n]*version\s*=\s*"([^"]+)")`)
)

// offline says why an exercise's code needs what the sandbox cannot have:
// a Java library from Maven Central beside JUnit and AssertJ, or a crate
// its Rust example (.meta/Cargo-example.toml, else the stub's Cargo.toml)
// uses of which Debian packages no compatible version. "" when it needs
// nothing more.
func offline(lang string, tree map[string][]byte) string {
	switch lang {
	case "java":
		if m := gradleDep.FindSubmatch(tree["build.gradle"]); m != nil {
			return "its code needs a library from Maven Central (" + string(m[1]) + "), which the sandbox does not have"
		}
	case "rust":
		toml, ok := tree[".meta/Cargo-example.toml"]
		if !ok {
			toml = tree["Cargo.toml"]
		}
		_, deps, _ := strings.Cut(string(toml), "[dependencies]")
		deps, _, _ = strings.Cut(deps, "\n[")
		var missing []string
		for _, m := range crateDep.FindAllStringSubmatch(deps, -1) {
			if want := m[2] + m[3]; !packaged(m[1], want) {
				missing = append(missing, m[1]+" "+want)
			}
		}
		if len(missing) > 0 {
			return "its example needs crates Debian packages no compatible version of, and the sandbox has no network: " +
				strings.Join(missing, ", ")
		}
	}
	return ""
}

// packaged says whether the registry holds a version of crate that cargo
// takes for the requirement want (a caret requirement, "1.0" or "0.4.4":
// the same leftmost non-zero part, and no older).
func packaged(crate, want string) bool {
	dirs, _ := filepath.Glob(filepath.Join(cargoRegistry, crate+"-[0-9]*"))
	w := version(want)
	for _, d := range dirs {
		v := version(strings.TrimPrefix(filepath.Base(d), crate+"-"))
		i := 0
		for i < 2 && w[i] == 0 { // the part that must match: the first non-zero, or the third
			i++
		}
		if slices.Equal(v[:i+1], w[:i+1]) && slices.Compare(v[:], w[:]) >= 0 {
			return true
		}
	}
	return false
}

// version reads major.minor.patch, missing parts 0.
func version(s string) [3]int {
	var v [3]int
	for i, part := range strings.SplitN(s, ".", 3) {
		v[i], _ = strconv.Atoi(strings.TrimLeft(part, "^=~ "))
	}
	return v
}

// instructions is the exercise's prompt: its instructions, their appendix,
// and which files to change.
func instructions(tree map[string][]byte, solution, tests []string) (string, error) {
	main, ok := tree[".docs/instructions.md"]
	if !ok {
		return "", errors.New(".docs/instructions.md is missing or a link")
	}
	text := strings.TrimSpace(string(main))
	if more, ok := tree[".docs/instructions.append.md"]; ok {
		text += "\n\n" + strings.TrimSpace(string(more))
	}
	return fmt.Sprintf("%s\n\nWrite the solution in %s; the tests in %s show what is expected. Keep the names the stub declares.\n",
		text, strings.Join(solution, ", "), strings.Join(tests, ", ")), nil
}

// inside says whether a file name from an exercise's config stays inside
// the exercise: relative, clean, with no step up. A name like
// ../../../root/.bashrc would otherwise be written beside the suite.
func inside(name string) bool {
	return filepath.IsLocal(name) && path.Clean(name) == name && !strings.Contains(name, "\\")
}

// summary is the reasons exercises were skipped, one phrase per language.
func summary(r Result) string {
	var parts []string
	for _, lang := range slices.Sorted(maps.Keys(r.Skipped)) {
		for _, why := range slices.Sorted(maps.Keys(r.Skipped[lang])) {
			parts = append(parts, fmt.Sprintf("%s: %d skipped, %s", lang, r.Skipped[lang][why], why))
		}
	}
	return strings.Join(parts, "; ")
}

// Print writes the import's table: tasks written and skipped per language
// and reason.
func (r Result) Print(w io.Writer) error {
	langs := map[string]bool{}
	for l := range r.Written {
		langs[l] = true
	}
	for l := range r.Skipped {
		langs[l] = true
	}
	names := slices.Collect(maps.Keys(langs))
	sort.Strings(names)
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "LANGUAGE\tWRITTEN\tSKIPPED\tWHY")
	for _, l := range names {
		if len(r.Skipped[l]) == 0 {
			fmt.Fprintf(tw, "%s\t%d\t0\t\n", l, r.Written[l])
		}
		for _, why := range slices.Sorted(maps.Keys(r.Skipped[l])) {
			fmt.Fprintf(tw, "%s\t%d\t%d\t%s\n", l, r.Written[l], r.Skipped[l][why], why)
		}
	}
	return tw.Flush()
}
