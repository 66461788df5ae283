package cli

import (
	"context"
	"flag"
	"fmt"
	"os"

	"ratchet/evolve"
)

func evolveCommand(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("evolve", flag.ContinueOnError)
	rounds := fs.Int("rounds", 1, "rounds to play")
	loop := fs.Bool("loop", false, "keep playing rounds until the STOP file, the daily budget or nothing left to learn")
	history := fs.Bool("history", false, "print the log of every round and exit")
	dryRun := fs.Bool("dry-run", false, "write the next round's evolve task, print its path and exit: what the evolver would see")
	goal := fs.String("goal", "", "the operator's goal, put in front of the evolver in every round of this run\n(without it, each round takes the next line of $ANCHOR_HOME/goals.txt)")
	harness := fs.String("harness", "harness", "the harness working copy (the head)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("evolve takes no arguments (got %q); quote a goal: --goal \"...\"", fs.Arg(0))
	}
	if *history {
		c, _ := evolve.FromEnv(*harness)
		return evolve.PrintHistory(c.Home, os.Stdout)
	}
	c, err := evolve.FromEnv(*harness)
	if err != nil {
		return err
	}
	c.Goal = *goal
	if *dryRun {
		dir, err := c.DryRun(ctx)
		if err != nil {
			return err
		}
		fmt.Println(dir)
		return nil
	}
	return c.Run(ctx, *rounds, *loop)
}
