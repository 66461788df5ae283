package main

import (
	"flag"
	"fmt"
	"os"

	"ratchet/tasks/exercism"
)

const tasksImportUsage = `usage: ratchet tasks import exercism DIR --out SUITE
Writes a new suite from the exercism exercises in DIR (exercises/practice/NAME/, or
LANG/exercises/practice/NAME/ as in the Aider polyglot benchmark): Go and Python
tasks, other languages skipped with the reason. Run ratchet tasks validate on it.`

// importCommand is ratchet tasks import exercism DIR --out SUITE. Its flags
// may stand before or after the folder.
func importCommand(args []string) error {
	const use = "usage: ratchet tasks import exercism DIR --out SUITE"
	fs := flag.NewFlagSet("tasks import", flag.ContinueOnError)
	out := fs.String("out", "", "the new suite's folder (must not exist)")
	var words []string
	for rest := args; ; rest = fs.Args()[1:] {
		if err := parseFlags(fs, rest, tasksImportUsage); err != nil {
			return err
		}
		if fs.NArg() == 0 {
			break
		}
		words = append(words, fs.Arg(0))
	}
	switch {
	case len(words) != 2 || words[0] != "exercism":
		return usageErr(use + " (exercism is the one format it reads)")
	case *out == "":
		return usageErr(use + ": --out names the suite to write")
	}
	res, err := exercism.Import(words[1], *out)
	if err != nil { // a refusal of DIR or --out: nothing was written
		return withStatus(exitUsage, err)
	}
	if err := res.Print(os.Stdout); err != nil {
		return err
	}
	fmt.Printf("wrote %s; check it with: ratchet tasks validate %s\n", *out, *out)
	return nil
}
