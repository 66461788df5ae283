package main

import (
	"cmp"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"

	"ratchet/door/editors"
)

const editorsUsage = `usage: ratchet editors [--editor LIST] [--command PATH] [--write DIR] [-- MCP-FLAGS]
Prints the MCP configuration that makes "ratchet mcp" appear in VS Code, Cursor,
Claude Code and Zed, or merges it into those editors' files in the project DIR.
The editor starts "ratchet mcp --root FOLDER" on the folder it has open (Zed, which
cannot name it, on DIR or the current folder). Flags after -- are passed to
"ratchet mcp" (e.g. -- --ledger /abs/ledger).`

// modelSettings are the MODEL_* settings of this shell that an editor's
// entry carries, credentials left out; nil when none is set.
func modelSettings() map[string]string {
	var env map[string]string
	for _, k := range []string{"MODEL_API", "MODEL_URL", "MODEL_NAME", "MODEL_OPTIONS"} {
		if v := os.Getenv(k); v != "" {
			if env == nil {
				env = map[string]string{}
			}
			env[k] = v
		}
	}
	return env
}

// editorsCommand is ratchet editors: the MCP entries of the editors,
// printed or merged into their files in a project.
func editorsCommand(args []string) error {
	fs := flag.NewFlagSet("editors", flag.ContinueOnError)
	only := fs.String("editor", "all", "editors to configure, comma-separated: vscode, cursor, claude, zed")
	command := fs.String("command", "ratchet", "the ratchet executable the editor starts (a name on PATH or an absolute path)")
	write := fs.String("write", "", "merge the configuration into the editors' files in this project folder instead of printing it")
	if err := parseFlags(fs, args, editorsUsage); err != nil {
		return err
	}
	eds, err := editors.Select(*only)
	if err != nil {
		return withStatus(exitUsage, err)
	}
	project, err := filepath.Abs(cmp.Or(*write, "."))
	if err != nil {
		return err
	}
	server := editors.Server{Name: "ratchet", Command: *command, Args: append([]string{"mcp"}, fs.Args()...), Project: project,
		Env: modelSettings()}
	if _, err := exec.LookPath(*command); err != nil {
		self, _ := os.Executable()
		fmt.Fprintf(os.Stderr, "note: %q is not an executable on PATH here; editors will not find it either: pass --command %s\n", *command, self)
	}
	if server.Env != nil {
		fmt.Fprintln(os.Stderr, "note: the entries carry this shell's MODEL_* settings, not the credential: give the editor MODEL_API_KEY in its own environment")
	}
	if *write == "" {
		for _, e := range eds {
			doc, err := e.Document(server)
			if err != nil {
				return err
			}
			fmt.Printf("// %s: %s\n%s\n", e.Title, e.Path, doc)
		}
		return nil
	}
	// One editor's malformed file does not keep the others from being set up.
	var errs []error
	for _, e := range eds {
		path, existed, err := e.Write(*write, server)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		verb := "wrote"
		if existed {
			verb = "updated"
		}
		fmt.Printf("%s %s (%s)\n", verb, path, e.Title)
	}
	return errors.Join(errs...)
}
