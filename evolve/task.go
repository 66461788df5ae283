package evolve

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"ratchet/anchor"
)

// evolvePrompt is the evolve task's prompt; the workspace's README.md says
// the rest. It asks for a general change: the anchor rejects an edit that
// carries a train task's strings.
const evolvePrompt = `This folder is a workspace for improving a coding agent. harness/ is the agent: a Go program (a harness) that drives a language model through four tools to fix bugs in code repositories. README.md describes everything here; read it first.
%s
1. Read history/README.md: every change tried before, what it fixed and broke on the training tasks, and whether it was accepted. Do not propose a rejected hypothesis again unless you say in HYPOTHESIS.md what is different this time.
2. Read traces/README.md, then the traces of failed runs, and compare them with passed runs. Diagnose what the agent does wrong.
3. Form one hypothesis: a change to exactly one file listed in harness/manifest.toml (EDITABLE.md lists each one and the values it sets) that would make the agent succeed more often on tasks like these. The change must help in general: never copy task names, module names, file names or strings from the traces into it.
4. Make that change with write_file (paths start with harness/), keeping the rest of the file as it is.
5. Write the hypothesis, in one or two sentences, to HYPOTHESIS.md.
6. Run run_tests: the harness must still build and pass its own tests. Then stop.
`

// goalLine puts the operator's goal in front of the evolver.
func goalLine(goal string) string {
	if goal == "" {
		return ""
	}
	return "\nThe operator's goal for this round: " + goal + "\nChoose a change that serves this goal, and say in HYPOTHESIS.md how it does.\n"
}

const workspaceREADME = `# The evolve workspace

You improve the coding agent in harness/ by changing exactly one of its editable files.

| path | what it holds |
|---|---|
| harness/ | the agent, generation %d of this ledger (the head). harness/manifest.toml lists the files you may change. |
| EDITABLE.md | each file you may change and the values it sets: caps, limits, tools' descriptions and parameters |
| traces/README.md | every training task's latest run of this harness (each repeat), failed and passed: task, score, tests passed |
| traces/<run>/index.md | one run's steps: every tool call with its arguments, result size and errors, and the files holding each step |
| traces/<run>/step-NNN.txt | one step of a run in full: the model's reply, the calls, and each tool result, nothing cut |
| history/README.md | every earlier candidate: decision, component, train tasks fixed and broken, hypothesis |
| history/gen-NNN/ | one candidate: candidate.md (hypothesis, decision, reason, per training task fixed and broken) and diff.patch |
| HYPOTHESIS.md | you write it: your hypothesis in one or two sentences |
%s
Every file under traces/ and history/ is shorter than 5000 characters, so read_file shows it whole.
A longer text is split into numbered parts (step-004.part1.txt, step-004.part2.txt, ...); the first
line of each part says which part it is and where it continues.

How the judge decides: a candidate is accepted only if the agent does better on the training tasks
and also on held-out tasks that you never see. Held-out results are shown only as the decision.
`

// workspace is what one round reads from the ledger before it builds the
// evolve task.
type workspace struct {
	ledger ledger
	gens   []anchor.Gen
	head   anchor.Gen
	runs   []anchor.Run // the head's latest train run of every task
	failed []string     // ids of the failed ones
}

// buildTask writes the evolve task: task.toml and repo/, the workspace.
func (c Config) buildTask(ctx context.Context, dir string, w workspace, goal string) error {
	if err := os.RemoveAll(dir); err != nil {
		return err
	}
	repo := filepath.Join(dir, "repo")
	if err := copyDir(c.Harness, filepath.Join(repo, "harness")); err != nil {
		return err
	}
	if err := writeTraces(filepath.Join(repo, "traces"), w.runs); err != nil {
		return err
	}
	if err := c.writeHistory(ctx, filepath.Join(repo, "history"), w.ledger, w.gens); err != nil {
		return err
	}
	goalSection := ""
	if goal != "" {
		goalSection = "\n## The operator's goal for this round\n\n" + goal + "\n"
	}
	readme := fmt.Sprintf(workspaceREADME, w.head.Gen, goalSection)
	guide, err := editableGuide(c.Harness)
	if err != nil {
		return err
	}
	return errors.Join(writeFile(filepath.Join(repo, "README.md"), []byte(readme)), writeFile(filepath.Join(repo, "EDITABLE.md"), guide), writeFile(filepath.Join(dir, "task.toml"), taskTOML(goal, c.TestCommand)))
}

// taskTOML is the evolve task's task.toml: the prompt as a multi-line
// literal string, taken verbatim, so a goal needs no escaping (three single
// quotes in a row become two), and the test, run in harness/.
func taskTOML(goal, test string) []byte {
	prompt := strings.ReplaceAll(fmt.Sprintf(evolvePrompt, goalLine(goal)), "'''", "''")
	return fmt.Appendf(nil, "prompt = '''\n%s'''\ntest = %q\ntimeout = \"900s\"\n", prompt, "cd harness && "+test)
}

// changedFiles lists the harness files that differ between the head working
// copy and the evolve run's final tree, added and removed files included.
func changedFiles(head, result string) ([]string, error) {
	a, err := readDir(head)
	if err != nil {
		return nil, err
	}
	b, err := readDir(result)
	if err != nil {
		return nil, fmt.Errorf("the evolve run left no tree: %w", err)
	}
	var changed []string
	for name, body := range b {
		if old, ok := a[name]; !ok || !bytes.Equal(old, body) {
			changed = append(changed, name)
		}
	}
	for name := range a {
		if _, ok := b[name]; !ok {
			changed = append(changed, name)
		}
	}
	return changed, nil
}

// readDir reads a harness tree (see anchor.ReadTree: links are never
// followed), leaving out dot-entries.
func readDir(dir string) (map[string][]byte, error) {
	files, err := anchor.ReadTree(dir, false)
	for name := range files {
		if strings.HasPrefix(name, ".") || strings.Contains(name, "/.") {
			delete(files, name)
		}
	}
	return files, err
}

// makeDiff is git's unified diff of one file, from the head to the result.
func makeDiff(work, head, result, file string) ([]byte, error) {
	for side, root := range map[string]string{"a": head, "b": result} {
		b, err := os.ReadFile(filepath.Join(root, file))
		if err != nil && !os.IsNotExist(err) {
			return nil, err
		}
		if err == nil {
			if err := writeFile(filepath.Join(work, "diff", side, file), b); err != nil {
				return nil, err
			}
		}
	}
	os.MkdirAll(filepath.Join(work, "diff", "a"), 0o755)
	os.MkdirAll(filepath.Join(work, "diff", "b"), 0o755)
	cmd := exec.Command("git", "diff", "--no-index", "--no-prefix", "--binary", "a", "b")
	cmd.Dir = filepath.Join(work, "diff")
	out, err := cmd.Output()
	if ee, ok := err.(*exec.ExitError); ok && ee.ExitCode() == 1 {
		err = nil // differences found
	}
	if err != nil || len(out) == 0 {
		return nil, fmt.Errorf("git diff: %v", err)
	}
	return out, nil
}

func copyDir(src, dst string) error {
	files, err := readDir(src)
	if err != nil {
		return err
	}
	return anchor.WriteTree(dst, files)
}

func writeFile(p string, b []byte) error {
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return err
	}
	return os.WriteFile(p, b, 0o644)
}
