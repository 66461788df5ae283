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
