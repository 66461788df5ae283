package main

import (
	"context"
	"flag"
	"fmt"
	"os"

	"ratchet/internal/harnesses"
)

const harnessUsage = `usage: ratchet harness which [--harness DIR] [--ledger DIR]   what run, serve and mcp would use here
       ratchet harness export [--gen N] [--ledger DIR] DIR         write a generation's snapshot (default: the head) as a folder`

// doorLedger is the ledger whose head the doors run: none when a harness
// folder is named, else the one harnesses.Ledger finds.
func doorLedger(folder, flag string) (ledger, from string, err error) {
	if folder != "" {
		return "", "", nil
	}
	return harnesses.Ledger(flag)
}

// harnessCommand is ratchet harness which|export: the harness the doors
// run here, or a generation's snapshot written as a folder.
func harnessCommand(_ context.Context, args []string) error {
	if groupHelp(args, harnessUsage) {
		return flag.ErrHelp
	}
	if len(args) == 0 {
		return usageErr("%s", harnessUsage)
	}
	if args[0] != "which" && args[0] != "export" {
		return usageErr("unknown harness command %q; ratchet harness -h lists them", args[0])
	}
	fs := flag.NewFlagSet("harness "+args[0], flag.ContinueOnError)
	folder := fs.String("harness", os.Getenv("RATCHET_HARNESS"), "a harness folder (RATCHET_HARNESS), as the doors take it")
	ledgerFlag := fs.String("ledger", "", "a ledger (an anchor home); default: ANCHOR_HOME, RATCHET_LEDGER, ~/.config/ratchet/config")
	gen := fs.Int("gen", -1, "the generation to export (ratchet log lists them); default: the head")
	if err := parseFlags(fs, args[1:], harnessUsage); err != nil {
		return err
	}
	named := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { named[f.Name] = true })
	switch {
	case args[0] == "which" && fs.NArg() == 0 && !named["gen"]:
		ledger, from, err := doorLedger(*folder, *ledgerFlag)
		if err != nil {
			return err
		}
		h, err := harnesses.Locate(*folder, ledger)
		if err != nil {
			return err
		}
		fmt.Printf("harness: %s\nhash: %s\n", h, h.Hash)
		if from != "" {
			fmt.Printf("ledger named by: %s\n", from)
		} else if ledger == "" {
			fmt.Println("ledger: none named (RATCHET_LEDGER, --ledger or ledger = in ~/.config/ratchet/config)")
		}
		return nil
	case args[0] == "export" && fs.NArg() == 1 && !named["harness"]:
		ledger, _, err := harnesses.Ledger(*ledgerFlag)
		if err != nil {
			return err
		}
		if ledger == "" {
			return usageErr("no ledger named: pass --ledger DIR (an anchor home), or set RATCHET_LEDGER or ledger = PATH in %s", harnesses.ConfigFile())
		}
		hash, err := harnesses.Export(ledger, *gen, fs.Arg(0))
		if err != nil {
			return err
		}
		fmt.Printf("exported %s to %s\nhash: %s\n", generation(*gen), fs.Arg(0), hash)
		return nil
	}
	return usageErr("%s", harnessUsage)
}

func generation(gen int) string {
	if gen < 0 {
		return "the head"
	}
	return fmt.Sprintf("generation %d", gen)
}
