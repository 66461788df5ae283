package anchor

import (
	"bytes"
	"context"
	_ "embed"
	"errors"
	"fmt"
	"maps"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"text/template"
)

// compileTests builds the test binaries of the packages with hidden tests,
// in box's tree, in a sandbox where no code of the agent runs: every go test
// of the command starts each binary through /opt/score/hide, which there
// copies it out, with its folder, environment and arguments, instead of
// running it. It then deletes the hidden test files from the tree, leaves
// the binaries in box.Opt with test2json (built from the toolchain's own
// source), and returns the script that scoring runs: each binary run
// directly in its folder, with its environment and arguments, its output
// made into go test's JSON events by test2json. No go test builds a package
// again, so the code under test may use what its test files declare, as
// under go test. It returns too the first line of the build's output that
// says why a package did not build. A package whose tests do not build has
// no binary: its hidden tests do not report, and fail. A task without
// hidden Go tests has nothing to hide: its command runs as written.
func compileTests(ctx context.Context, t Task, files, hidden map[string][]byte, box Box) (script, why string,
	err error) {
	var tests []string
	for _, name := range slices.Sorted(maps.Keys(hidden)) {
		if strings.HasSuffix(name, "_test.go") {
			tests = append(tests, name)
		}
	}
	bins := filepath.Join(box.Work, "bins")
	if len(tests) == 0 {
		hide := map[string][]byte{"hide": []byte(passThrough)}
		return t.ScoreCommand(), "", WriteTree(box.Opt, hide)
	}
	collect, err := hideScript(tests)
	if err != nil {
		return "", "", err
	}
	first := box // the compiling sandbox: the same tree, and the hider that copies
	first.Opt, first.Args = filepath.Join(filepath.Dir(box.Work), "compile"), []string{"sh", "-c",
		"install -m 755 \"$(cd / && go tool -n test2json)\" /work/bins/test2json; " + t.ScoreCommand()}
	err = errors.Join(os.Mkdir(bins, 0o755), WriteTree(first.Opt, map[string][]byte{"hide": collect}))
	if err != nil {
		return "", "", err
	}
	code, out, _, err := first.Run(ctx)
	if err != nil || ctx.Err() != nil {
		return "", "", errors.Join(err, ctx.Err())
	}
	for _, name := range tests { // no test source is on disk while the agent's code runs
		err = errors.Join(err, os.RemoveAll(filepath.Join(box.Work, "task", name)))
	}
	_, built := os.Stat(filepath.Join(bins, "test2json")) // without the toolchain's own, no output is read
	if err := errors.Join(err, built, os.Rename(bins, box.Opt)); err != nil {
		return "", "", err
	}
	script = fmt.Sprintf("[ %d = 0 ]; s=$?\n", code) // a package that did not build fails the command
	for i := 0; ; i++ {
		at := filepath.Join(box.Opt, strconv.Itoa(i))
		env, err1 := os.ReadFile(at + ".env")
		args, err2 := os.ReadFile(at + ".args")
		if errors.Join(err1, err2) != nil {
			break // the last binary (or one whose copy failed, in a full sandbox)
		}
		folder, env, _ := bytes.Cut(env, []byte{0})
		rel, _ := filepath.Rel("/work/task", string(folder))
		script += fmt.Sprintf("(cd %s && exec env -i %s /opt/score/test2json -p %s /opt/score/%d.test %s) || s=1\n",
			quote(string(folder)), words(env), quote(goPackage(files, rel)), i, words(args))
	}
	return script + "exit $s\n", firstLine(out, "build-output"), nil
}

// passThrough is the hider of a task without hidden Go tests: nothing to
// hide, so every binary runs as go test would run it.
const passThrough = "#!/bin/sh\nexec \"$@\"\n"

// hideText is the hider's template (hide.sh): the folders of the hidden
// test files, each quoted by quote, are its one input.
//
//go:embed hide.sh
var hideText string

var hideTemplate = template.Must(template.New("hide.sh").Funcs(template.FuncMap{"quote": quote}).
	Parse(hideText))

// hideScript renders the hider for the hidden Go test files tests: it copies
// out the test binaries started in their folders (see hide.sh).
func hideScript(tests []string) ([]byte, error) {
	var dirs []string
	for _, name := range tests {
		dirs = append(dirs, path.Join("/work/task", path.Dir(name)))
	}
	var b bytes.Buffer
	err := hideTemplate.Execute(&b, dirs)
	return b.Bytes(), err
}

// quote makes s one word of sh.
func quote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }
