package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
)

// What -h prints above each command's flags: how to call it and the
// environment variables it reads. The flags that an environment variable sets
// name it in their own description, as "(ANCHOR_HOME)".
const (
	modelEnv = `The model: MODEL_API (openai or anthropic; default openai), MODEL_URL (default
http://127.0.0.1:11434), MODEL_NAME, MODEL_OPTIONS (JSON merged into every request)
and the credential MODEL_API_KEY, else OPENAI_API_KEY or ANTHROPIC_API_KEY.`
	doorFlagEnv = `Environment: RATCHET_HOME, RATCHET_HARNESS, ANCHOR_HOME and RATCHET_LEDGER set the
flags that name them.`
	doorEnv = doorFlagEnv + "\n" + modelEnv

	runUsage = `usage: ratchet run [flags] "request"
Runs the head harness on your project for one request; prints the test command,
the steps, the files changed and the tests before and after, and saves the record
in RATCHET_HOME. Exits 0 when the run completed and the tests pass, 1 when they
still fail or the run ended otherwise, 2 for bad input, 3 when the model server
gave no answer.
` + doorEnv
	sessionsUsage = `usage: ratchet sessions [--show ID] [--json] [flags]
Lists the saved request records (RATCHET_HOME/sessions.db), or prints one session's.
` + doorFlagEnv
	serveUsage = `usage: ratchet serve --project DIR | --root DIR [flags]
Serves POST /v1/ask and the OpenAI-compatible POST /v1/chat/completions on loopback,
for the projects named. RATCHET_TOKEN is the bearer token clients send (default: a
new one, printed at start).
` + doorEnv
	mcpUsage = `usage: ratchet mcp [--root DIR | --project DIR] [flags]
An MCP server on stdio: ask, sessions and read-only ledger queries. Without --root or
--project it works on the folder it is started in (not / or your home folder);
ratchet editors writes the editors' configuration for it.
` + doorEnv
	uiUsage = `usage: ratchet ui [--addr 127.0.0.1:PORT] [--home DIR]
A read-only dashboard over the ledger. Environment: ANCHOR_HOME sets --home.`
	planUsage = `usage: ratchet plan [flags]
What gain the acceptance gate can detect on this suite: power, holdout size and
repeats needed, from the head's runs or from --p. Environment: ANCHOR_HOME sets --home.`
	tasksUsage = `usage: ratchet tasks validate [--jobs N] DIR
       ratchet tasks import exercism DIR --out SUITE
       ratchet tasks mine REPO --out SUITE     tasks from the fixing commits of a git history
       ratchet tasks mutate REPO --out SUITE   tasks from bugs planted in the code (-n, --seed)
validate checks every task of the suite in DIR in the anchor's sandbox: the repo
fails, the reference passes, nothing hidden leaks, no two tasks are the same.
import exercism writes a suite from an exercism track or the Aider polyglot benchmark.`
	tasksImportUsage = `usage: ratchet tasks import exercism DIR --out SUITE
Writes a new suite from the exercism exercises in DIR (exercises/practice/NAME/, or
LANG/exercises/practice/NAME/ as in the Aider polyglot benchmark): Go and Python
tasks, other languages skipped with the reason. Run ratchet tasks validate on it.`
	mineUsage = `usage: ratchet tasks mine REPO --out SUITE [flags]
Walks REPO's first-parent history for commits that change code and tests together,
whose tests fail on the parent and pass on the commit, and writes one task each
(tasks/README.md, "Your own tasks"). A second run adds only new commits. Environment:
GOPROXY (the host's module proxy) is used to vendor Go modules.`
	mutateUsage = `usage: ratchet tasks mutate REPO --out SUITE [flags]
Plants one bug at a time in REPO's code (Go or Python) and keeps those its own tests
catch, as tasks whose prompt is the failing test's report (tasks/README.md).`
	scriptedUsage = `usage: ratchet scripted-model [--suite DIR] [--rate P]
Serves the demo's scripted models (the task oracle, then the evolver) until
interrupted and prints their URLs. Environment: ANCHOR_TASKS sets --suite.`
)

// parseFlags parses a command's flags. -h prints usage, then every flag with
// its default, on stdout and returns flag.ErrHelp, which Main treats as
// success. Any other error is one line that says where help is. Either way
// the command has done nothing yet, so nothing is left on disk.
func parseFlags(fs *flag.FlagSet, args []string, usage string) error {
	fs.SetOutput(io.Discard)
	err := fs.Parse(args)
	if errors.Is(err, flag.ErrHelp) {
		printUsage(os.Stdout, fs, usage)
		return err
	}
	if err != nil {
		return usageErr("%w; ratchet %s -h lists its flags", err, strings.TrimPrefix(fs.Name(), "ratchet "))
	}
	return nil
}

// printUsage writes usage and the flags with their defaults to w.
func printUsage(w io.Writer, fs *flag.FlagSet, usage string) {
	fmt.Fprintln(w, strings.TrimSpace(usage))
	fmt.Fprintln(w, "\nflags:")
	fs.SetOutput(w)
	fs.PrintDefaults()
	fs.SetOutput(io.Discard)
}

// isHelp reports whether arg asks for help.
func isHelp(arg string) bool {
	return arg == "-h" || arg == "-help" || arg == "--help" || arg == "help"
}

// groupHelp answers a command that takes a subcommand (tasks, harness,
// fleet) when its first argument asks for help.
func groupHelp(args []string, usage string) bool {
	if len(args) == 0 || !isHelp(args[0]) {
		return false
	}
	fmt.Println(strings.TrimSpace(usage))
	return true
}
