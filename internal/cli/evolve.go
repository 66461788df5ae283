package cli

import (
	"context"
	"flag"
	"os"

	"ratchet/evolve"
)

func evolveCommand(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("evolve", flag.ContinueOnError)
	rounds := fs.Int("rounds", 1, "rounds to play")
	loop := fs.Bool("loop", false, "keep playing rounds until the STOP file, the daily budget or nothing left to learn")
	history := fs.Bool("history", false, "print the log of every round and exit")
	harness := fs.String("harness", "harness", "the harness working copy (the head)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	c, err := evolve.FromEnv(*harness)
	if err != nil && !*history {
		return err
	}
	if *history {
		return evolve.PrintHistory(c.Home, os.Stdout)
	}
	return c.Run(ctx, *rounds, *loop)
}
