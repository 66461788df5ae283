// Command ratchet is everything around the anchor: the evolver, the task
// tools, the planner and the front doors. Each subcommand lives in its own
// file (run.go, serve.go, tasks_mine.go, ...); dispatch.go maps a command
// name to it, exit.go turns its error into the exit status.
//
// It sits at the top of the module: it may import any package of ours but
// cmd/anchor, and nothing imports it (docs/ARCHITECTURE.md, "Layout").
package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"ratchet/door"
	"ratchet/internal/show"
)

func main() {
	door.HideCredentials() // out of /proc/PID/environ, where host commands could read them
	done := show.Guard()   // all it and its children print passes the sanitiser (#21)
	code := Main(os.Args[1:])
	done()
	os.Exit(code)
}

// Main runs the ratchet command line and returns the exit status.
func Main(args []string) int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	err := run(ctx, args)
	if code := exitStatus(err); code != 0 {
		fmt.Fprintln(os.Stderr, "ratchet:", err)
		return code
	}
	return 0 // done, or -h printed the help
}
