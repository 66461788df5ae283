package main

import (
	"context"
	"fmt"
)

const usage = `usage: ratchet COMMAND
  tasks validate DIR   check every task of a suite (runs in the anchor's sandbox)
  tasks import exercism DIR --out SUITE   a suite from an exercism track or the Aider polyglot benchmark
  tasks mine|mutate REPO --out SUITE   a suite from a repository's fixing commits, or from bugs planted in its code
  evolve [--rounds N|--loop|--history|--dry-run] [--goal TEXT]   improve the head harness under the anchor
  run [--project DIR] [--test CMD] [--session ID] [--sandbox] [--budget N] "request"   the head harness on your project
  sessions [--show ID] [--json]            the saved request records
  serve --project DIR|--root DIR [--addr 127.0.0.1:PORT] [--test CMD]   POST /v1/ask and OpenAI-compatible /v1/chat/completions (bearer token)
  mcp [--project DIR|--root DIR]   an MCP server on stdio (ask, sessions, ledger queries); projects under the working folder by default
  editors [--write DIR]   the MCP configuration for VS Code, Cursor, Claude Code and Zed
  harness which|export [--gen N] DIR   what the doors run here; write a generation's snapshot as a folder
  ui [--addr 127.0.0.1:PORT]   a read-only dashboard over the ledger in ANCHOR_HOME
  fleet submit|worker|status [--nats URL]   run the anchor's runs on many machines (NATS JetStream)
  log [--json]   the generations of the ledger: the gate's evidence, decisions, costs
  verify [--json] [GEN]   re-derive every decision (or GEN's) from the ledger at zero tokens
  plan [--aa N] [--p P --holdout N] [--json]   what gain the gate can detect on this suite
  calibrate [--n N] [--variants DIR] [--json]   the gate's false-accept rate measured with the live model
  scripted-model [--suite DIR] [--sampler [--gain G] [--kinds S]]   scripted stand-in models (make demo, gate power)

Run ratchet COMMAND -h for a command's flags, their defaults and the environment
variables it reads. The model comes from MODEL_API, MODEL_URL, MODEL_NAME,
MODEL_OPTIONS and MODEL_API_KEY (README: "Pointing it at a model"), the ledger from
ANCHOR_HOME (default .anchor), request records from RATCHET_HOME (default ~/.ratchet).
Exit status: 0 done as asked; 1 done with a negative result (the tests still fail, the run
ended in error, a bad suite); 2 bad usage or input, nothing done; 3 infrastructure (the
model server, the sandbox, NATS). ratchet run --json says it as exit_status.
see README.md and docs/OPERATOR.md ("Exit statuses")`

// run dispatches args to the subcommand they name, one file each; the
// shared plumbing is in exit.go, help.go, doorflags.go, doorguard.go,
// listen.go and output.go.
func run(ctx context.Context, args []string) error {
	if len(args) == 0 {
		return usageErr("no command\n%s", usage)
	}
	switch args[0] {
	case "tasks":
		return tasksCommand(ctx, args[1:])
	case "evolve":
		return evolveCommand(ctx, args[1:])
	case "run":
		return runCommand(ctx, args[1:])
	case "sessions":
		return sessionsCommand(args[1:])
	case "serve":
		return serveCommand(ctx, args[1:])
	case "mcp":
		return mcpCommand(ctx, args[1:])
	case "editors":
		return editorsCommand(args[1:])
	case "harness":
		return harnessCommand(ctx, args[1:])
	case "ui":
		return uiCommand(ctx, args[1:])
	case "fleet":
		return fleetCommand(ctx, args[1:])
	case "log":
		return logCommand(ctx, args[1:])
	case "verify":
		return verifyCommand(ctx, args[1:])
	case "plan":
		return planCommand(ctx, args[1:])
	case "calibrate":
		return calibrateCommand(ctx, args[1:])
	case "scripted-model":
		return scriptedCommand(ctx, args[1:])
	case "help", "-h", "--help":
		fmt.Println(usage)
		return nil
	}
	return usageErr("unknown command %q; ratchet -h lists the commands", args[0])
}
